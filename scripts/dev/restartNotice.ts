// What dev reads once, at its start: dev.config.ts and the stand-ins under dev/ it imports. An edit
// there takes effect only after a restart, and dev says so when it sees one, instead of going on
// silently with the old setup.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';

/** Files and folders of the project that dev reads only when it starts. */
export const READ_AT_START = ['dev.config.ts', 'dev'] as const;

/** The line dev prints for an edit of `file` (relative to the project). */
export const restartLine = (file: string): string =>
  `${file} changed: dev reads it only when it starts. Restart dev for the change to take effect (Ctrl-C, then npm run dev).`;

/**
 * Watches READ_AT_START under `root` and calls `say` once per edited file until dev restarts;
 * undefined when the project has none of them.
 */
export const watchReadAtStart = (root: string, say: (line: string) => void): FSWatcher | undefined => {
  const paths = READ_AT_START.map((entry) => join(root, entry)).filter(existsSync);
  if (paths.length === 0) return undefined;
  const said = new Set<string>();
  const watcher = watch(paths, { ignoreInitial: true });
  watcher.on('all', (_event, path) => {
    const file = relative(root, path);
    if (said.has(file)) return;
    said.add(file);
    say(restartLine(file));
  });
  return watcher;
};
