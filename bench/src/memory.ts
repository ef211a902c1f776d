// Part 4: heap retained per registered function, in Node (V8, as in workerd) with --expose-gc.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ROOT } from './buildWorker.ts';

const run = promisify(execFile);

/** Bytes of heap each function keeps alive, for one registry size. */
export interface MemoryResult {
  count: number;
  /** The definition alone: its zod schema, description and handler. */
  definitionBytes: number;
  /** The definition plus the registry's translation (parameter infos, manifest, JSON Schema). */
  registeredBytes: number;
}

/**
 * Measures `count` functions per registry in a fresh Node process.
 * @example (await measureMemory(1000)).registeredBytes
 */
export const measureMemory = async (count: number): Promise<MemoryResult> => {
  const { stdout } = await run(process.execPath, ['--expose-gc', 'bench/src/memoryProbe.ts', String(count)], {
    cwd: ROOT,
  });
  const { definitionBytes, registeredBytes } = JSON.parse(stdout) as MemoryResult;
  return { count, definitionBytes, registeredBytes };
};
