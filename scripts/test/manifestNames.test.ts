// Every command that reads the manifest from the Worker (lint functions, sync, openapi, eval) names
// a function file whose name the platform would refuse, instead of wrangler's "there are likely more
// logs from your build command above" with no logs above.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { readManifest } from '../project/manifest.ts';
import { copyProject } from './project.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('reading the manifest of a project with a dash-named function file', () => {
  it('says which file and what a function file must be named', async () => {
    const dir = copyProject({ 'functions/tell-time.ts': "export default 'not a function';\n" });
    dirs.push(dir);
    await expect(readManifest({ secret: 'a-secret-of-at-least-24-characters', root: dir })).rejects.toThrow(
      /functions\/tell-time\.ts: a function's file name is its name on the platform and must be snake_case/,
    );
  }, 60_000);
});
