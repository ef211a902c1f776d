// Removing examples as the README says: delete functions/<name>.ts and test/functions/<name>.*, and
// nothing else; the type check, the description lint, the project's tests and a deploy's build
// stay green. The two functions with the most test files go: those whose tests other examples'
// used to share (two accounts, conversations). No example is named here (scripts/test/framework.test.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyProject } from '../scripts/test/project.ts';
import { userEnv } from './userShell.ts';

const dir = copyProject();
const testFiles = readdirSync(join(dir, 'test', 'functions'));
/** The two functions of functions/ with the most test/functions/<name>.* files. */
const REMOVED = readdirSync(join(dir, 'functions'))
  .filter((file) => /^[a-z][a-z0-9_]*\.ts$/.test(file))
  .map((file) => file.slice(0, -3))
  .map((name) => ({ name, files: testFiles.filter((file) => file.startsWith(`${name}.`)).length }))
  .sort((a, b) => b.files - a.files || a.name.localeCompare(b.name))
  .slice(0, 2)
  .map(({ name }) => name);
const out = mkdtempSync(join(tmpdir(), 'remove-example-out-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
});

const run = (args: string[]) => {
  const result = spawnSync('npx', args, { cwd: dir, encoding: 'utf8', env: userEnv() });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe('removing an example as the README says', () => {
  it('leaves the checks, the tests and a deploy green with nothing else to edit', () => {
    expect(REMOVED).toHaveLength(2);
    for (const name of REMOVED) {
      rmSync(join(dir, 'functions', `${name}.ts`));
      for (const file of readdirSync(join(dir, 'test', 'functions'))) {
        if (file.startsWith(`${name}.`)) rmSync(join(dir, 'test', 'functions', file));
      }
    }
    for (const step of [
      ['agent-functions', 'generate'],
      ['tsc', '-p', 'tsconfig.json'],
      ['agent-functions', 'lint', 'functions'],
      ['vitest', 'run', '--project', 'project'],
      ['wrangler', 'deploy', '--dry-run', '--outdir', out],
    ]) {
      const result = run(step);
      expect(result.status, `${step.join(' ')}:\n${result.output}`).toBe(0);
    }
  }, 300_000);
});
