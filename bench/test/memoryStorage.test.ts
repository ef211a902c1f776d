import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useMemoryStorage } from '../src/memoryStorage.ts';

describe('where the bench keeps the local runtime storage', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('points the temporary folder at a writable memory folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'memory-storage-'));
    made.push(folder);
    const env: NodeJS.ProcessEnv = {};
    expect(useMemoryStorage(env, folder)).toBe(folder);
    expect(env.TMPDIR).toBe(folder);
  });

  it('keeps a TMPDIR the person running it chose, and leaves it unset without such a folder', () => {
    const own: NodeJS.ProcessEnv = { TMPDIR: '/var/tmp' };
    expect(useMemoryStorage(own, '/dev/shm')).toBeUndefined();
    expect(own.TMPDIR).toBe('/var/tmp');
    const none: NodeJS.ProcessEnv = {};
    expect(useMemoryStorage(none, '/no/such/folder')).toBeUndefined();
    expect(none.TMPDIR).toBeUndefined();
  });
});
