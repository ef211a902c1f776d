// What dev watches for a reload: the folders whose files the Worker is built from.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type FSWatcher, watch } from 'chokidar';

/** The folders of the project a function, an event handler or their shared code lives in. */
const SOURCE_FOLDERS = ['functions', 'events', 'lib'] as const;

/**
 * Calls `onChange` on every change under the SOURCE_FOLDERS of `root` that exist (undefined when
 * none does); `warn` hears what goes wrong with the watching.
 * @example const watcher = watchSources(root, () => void loop.onChange(), warn);
 */
export const watchSources = (
  root: string,
  onChange: () => void,
  warn: (text: string) => void,
): FSWatcher | undefined => {
  const folders = SOURCE_FOLDERS.map((folder) => join(root, folder)).filter(existsSync);
  if (folders.length === 0) return undefined;
  // chokidar sees every save, also an editor's that writes a new file and renames it over the old
  // (vim, JetBrains' safe write, sed -i), which Node's recursive fs.watch misses after the first.
  const watcher = watch(folders, { ignoreInitial: true });
  watcher.on('all', () => onChange());
  watcher.on('error', (error) => warn(`watching ${folders.join(', ')}: ${(error as Error).message}`));
  return watcher;
};
