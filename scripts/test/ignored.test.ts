// What git and biome leave alone, in this repository and in a project `agent-functions init` makes:
// the files that hold keys (every .env and .dev.vars but their examples) are never committed by a
// `git add -A`, and a file the tools write (npm run openapi's openapi.json) never fails npm test
// nor is rewritten by npm run format.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newProject } from '../init/project.ts';
import { templateAt } from '../init/template.ts';
import { PROJECT_ROOT } from './repo.ts';

const KEY_FILES = ['.env', '.env.staging', '.env.production', '.dev.vars', '.dev.vars.staging', 'lib/.env.local'];
const EXAMPLES = ['.env.example', '.dev.vars.example'];

/** Which of `paths` git ignores under `gitignore`, in a repository of its own. */
const ignoredBy = (gitignore: string, paths: string[]): string[] => {
  const dir = mkdtempSync(join(tmpdir(), 'ignored-'));
  try {
    spawnSync('git', ['init', '-q'], { cwd: dir });
    writeFileSync(join(dir, '.gitignore'), gitignore);
    const result = spawnSync('git', ['check-ignore', '--no-index', ...paths], { cwd: dir, encoding: 'utf8' });
    return result.stdout.split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

describe('the files that hold keys', () => {
  const newOne = newProject(templateAt(PROJECT_ROOT), { name: 'acme-dental', examples: true });
  const cases: Array<[string, string]> = [
    ['this repository', readFileSync(join(PROJECT_ROOT, '.gitignore'), 'utf8')],
    ['a new project', String(newOne.get('.gitignore'))],
  ];
  for (const [where, gitignore] of cases) {
    it(`are git-ignored in ${where}, every environment's, but not their examples`, () => {
      expect(ignoredBy(gitignore, [...KEY_FILES, ...EXAMPLES, 'openapi.json']).sort()).toEqual(
        [...KEY_FILES, 'openapi.json'].sort(),
      );
    });
  }
});

describe("npm run openapi's openapi.json", () => {
  // The project's biome.json beside one file it formats, not a whole copy of the project: biome
  // over every file of the repository, twice, took 14 s of npm test.
  const dir = mkdtempSync(join(tmpdir(), 'ignored-biome-'));
  writeFileSync(join(dir, 'biome.json'), readFileSync(join(PROJECT_ROOT, 'biome.json')));
  writeFileSync(join(dir, 'worker.ts'), "export const formatted = 'as biome writes it';\n");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is not linted: biome check passes and npm run format leaves it as written', () => {
    // As npm run openapi writes it: JSON.stringify's layout, which is not biome's.
    const written = `${JSON.stringify({ openapi: '3.1.0', tags: ['functions'], paths: {} }, null, 2)}\n`;
    writeFileSync(join(dir, 'openapi.json'), written);
    const biome = join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');
    const check = spawnSync(biome, ['check', '.'], { cwd: dir, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    spawnSync(biome, ['check', '--write', '.'], { cwd: dir, encoding: 'utf8' });
    expect(readFileSync(join(dir, 'openapi.json'), 'utf8')).toBe(written);
  }, 60_000);
});
