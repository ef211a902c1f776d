// Throw-away copies of the project (sharing node_modules) for the tests that run it as a user
// would: `npm run dev`, sync's manifest. `fixtureProject` swaps functions/ for the framework's own
// test functions (src/test/fixtures/functions/), so those tests pass whatever functions/ holds.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { generate } from '../project/generated.ts';
import { PROJECT_ROOT } from './repo.ts';

const LEFT_OUT = new Set([
  'node_modules',
  '.git',
  '.wrangler',
  'test-results',
  '.env',
  '.dev.vars',
  'dist',
  'coverage',
]);

/** The fixture functions' folder, in the project and in every copy of it. */
const FIXTURES = 'src/test/fixtures/functions';

/** The fixture functions' names, sorted as the manifest lists them. */
export const FIXTURE_NAMES = readdirSync(join(PROJECT_ROOT, FIXTURES))
  .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
  .map((file) => file.slice(0, -3))
  .sort();

/** A copy of the project (sharing node_modules) holding `files` as well. */
export const copyProject = (files: Record<string, string> = {}): string => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-functions-'));
  cpSync(PROJECT_ROOT, dir, {
    recursive: true,
    filter: (source) => {
      const [top = '', ...below] = relative(PROJECT_ROOT, source).split('/');
      // The packages' builds and installs too (src/dist, scripts/dist): the copy never reads them.
      return !LEFT_OUT.has(top) && !below.some((part) => part === 'dist' || part === 'node_modules');
    },
  });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
};

/**
 * A copy of the project whose functions/ holds only the fixture functions, each a one-line file,
 * with its registry regenerated (as `npm run dev` and the tests do before the Worker starts).
 */
export const fixtureProject = (files: Record<string, string> = {}): string => {
  const dir = copyProject(files);
  rmSync(join(dir, 'functions'), { recursive: true });
  mkdirSync(join(dir, 'functions'));
  for (const name of FIXTURE_NAMES) {
    writeFileSync(join(dir, 'functions', `${name}.ts`), `export { default } from '../${FIXTURES}/${name}.ts';\n`);
  }
  generate(dir);
  return dir;
};
