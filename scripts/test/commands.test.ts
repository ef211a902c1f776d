// Every list of commands and subpaths is held to its one source: the commands to scripts/commands.ts
// (what `agent-functions` dispatches), the framework's subpaths to src/package.json's exports. A
// command or subpath added in one place and forgotten in a README or in init's scripts fails here.
// (docs/api.md's sections are held to the exports by api.test.ts; `agent-functions/internal` is the
// CLI's, not a project's, and is listed in neither.)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../commands.ts';
import { REPOSITORY_SCRIPTS, USER_SCRIPTS } from '../init/project.ts';
import { PROJECT_ROOT } from './repo.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');
const rootScripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/** The command a root npm script runs (`agent-functions <command> ...`, `exec` before it or not), if it runs one. */
const commandOf = (script: string): string | undefined => /^(?:exec )?agent-functions ([a-z]+)/.exec(script)?.[1];

/** The first cells of a markdown table's rows, under the heading `heading` of `markdown`. */
const firstCells = (markdown: string, heading: string): string[] => {
  const section = markdown.slice(markdown.indexOf(heading));
  const end = section.indexOf('\n## ', heading.length);
  return [...(end < 0 ? section : section.slice(0, end)).matchAll(/^\| `([^`]+)`/gm)].map((match) => match[1] ?? '');
};

describe('the commands', () => {
  const names = Object.keys(COMMANDS);

  it('each has a root npm script, and every script that runs agent-functions names a command', () => {
    const run = new Set(Object.values(rootScripts).flatMap((script) => commandOf(script) ?? []));
    expect([...run].filter((name) => !names.includes(name))).toEqual([]);
    expect(names.filter((name) => !run.has(name))).toEqual([]);
  });

  it('each root script is one init gives a project or one it keeps for the repository, and no name is both', () => {
    const listed = [...USER_SCRIPTS, ...REPOSITORY_SCRIPTS] as string[];
    expect(Object.keys(rootScripts).filter((script) => !listed.includes(script))).toEqual([]);
    expect(listed.filter((script) => !(script in rootScripts))).toEqual([]);
    expect(USER_SCRIPTS.filter((script) => (REPOSITORY_SCRIPTS as readonly string[]).includes(script))).toEqual([]);
  });

  it('each has its folder, named for it, with its entry main.ts', () => {
    expect(names.filter((name) => !existsSync(join(PROJECT_ROOT, 'scripts', name, 'main.ts')))).toEqual([]);
    const table = read('scripts/commands.ts');
    expect(names.filter((name) => !table.includes(`import('./${name}/main.ts')`))).toEqual([]);
  });

  it("the README's command table has a row for every script init gives a project that runs a command", () => {
    const rows = firstCells(read('README.md'), '## Commands').map((cell) => /^npm (?:run )?([\w:]+)/.exec(cell)?.[1]);
    const wanted = USER_SCRIPTS.filter((script) => commandOf(rootScripts[script] ?? ''));
    expect(wanted.filter((script) => !rows.includes(script))).toEqual([]);
  });

  it("the CLI's README has a row for every command", () => {
    const rows = firstCells(read('scripts/README.md'), '## Commands').map(
      (cell) => /^agent-functions ([a-z]+)/.exec(cell)?.[1],
    );
    expect(names.filter((name) => !rows.includes(name))).toEqual([]);
  });

  it('docs/api.md names every command', () => {
    const api = read('docs/api.md');
    const section = api.slice(api.indexOf('## `agent-functions-cli` (the command)'));
    expect(names.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });
});

describe("the framework's subpaths", () => {
  const exported = Object.keys(
    (JSON.parse(read('src/package.json')) as { exports: Record<string, unknown> }).exports,
  ).filter((path) => path !== './package.json' && path !== './internal');
  const asImport = (path: string) => (path === '.' ? 'agent-functions' : `agent-functions/${path.slice(2)}`);

  it("src/README.md's table lists every one", () => {
    const rows = firstCells(read('src/README.md'), '## What it exports');
    expect(exported.map(asImport).filter((name) => !rows.includes(name))).toEqual([]);
  });
});
