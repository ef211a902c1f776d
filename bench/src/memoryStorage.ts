// Where the local runtime keeps Durable Object and Workflow storage during a benchmark run
// (docs/performance.md "Method"). Miniflare keeps it under the temporary folder, and workerd
// writes its SQLite there on the one thread that also runs the Worker: on a disk, a slow sync held
// that thread for up to 600 ms (a deferred call answered 631 ms past answerWithinMs at p99 while
// its round trips took 154 and 42 ms), a wait no deployed Worker shares with its Durable Objects.
// In memory the same stage read 8 to 13 ms. The storage is written all the same, only not synced.
import { accessSync, constants } from 'node:fs';

/** Linux's shared-memory file system; where it is missing or read-only, the storage stays on disk. */
export const MEMORY_FOLDER = '/dev/shm';

/**
 * Points the temporary folder of this process and its children (Miniflare's storage with it) at
 * memory when `folder` is writable and `env` names no TMPDIR of its own; returns the folder used,
 * or undefined when the storage stays where it was.
 * @example useMemoryStorage({}) // '/dev/shm' on Linux
 */
export const useMemoryStorage = (env: NodeJS.ProcessEnv = process.env, folder = MEMORY_FOLDER): string | undefined => {
  if (env.TMPDIR !== undefined) return undefined;
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    return undefined;
  }
  env.TMPDIR = folder;
  return folder;
};
