// A formatting failure in npm test names the command that fixes it, in this repository's npm test
// (lint:biome) and in a new project's (lint): each script run as npm runs it, on a badly formatted file.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { newProject } from '../init/project.ts';
import { templateAt } from '../init/template.ts';
import { PROJECT_ROOT } from './repo.ts';

const dir = mkdtempSync(join(tmpdir(), 'format-hint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(join(PROJECT_ROOT, 'biome.json'), join(dir, 'biome.json'));
writeFileSync(join(dir, 'bad.ts'), 'export const  spaced =   {a:1}\n');

/** Runs a package.json script's text in `dir`, as npm does (sh, with the project's tools on PATH). */
const run = (script: string) =>
  spawnSync('sh', ['-c', script], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, PATH: [join(PROJECT_ROOT, 'node_modules', '.bin'), process.env.PATH].join(delimiter) },
  });

describe('a formatting failure in npm test', () => {
  it("names npm run format, in this repository's lint:biome and in a new project's lint", () => {
    const root = JSON.parse(
      newProject(templateAt(PROJECT_ROOT), { name: 'x', examples: false }).get('package.json') as string,
    );
    const repository = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    for (const script of [repository.scripts['lint:biome'] as string, root.scripts.lint as string]) {
      const result = run(script);
      expect(result.status, script).not.toBe(0);
      expect(result.stdout + result.stderr, script).toContain('npm run format');
    }
  }, 30_000);
});
