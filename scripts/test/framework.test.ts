// The framework and its tools never name an example function or an example's setting, so deleting
// the examples (README "Removing the examples") needs no edit anywhere else. The examples are the
// functions the README's Examples table lists; the project's own files may name them (functions/,
// events/, lib/, test/, dev.config.ts, dev/, worker.ts, wrangler.toml, .dev.vars.example, the
// README), and so may the end-to-end test of the examples themselves. Everything of the workspace
// packages is read (src/, scripts/, bench/, e2e/, CI and the configs), but what their builds
// write (dist/: the CLI's copy of the example project is there by design).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './repo.ts';

const FRAMEWORK = [
  'src',
  'scripts',
  'bench',
  'e2e',
  '.github',
  '.ci',
  'vitest.config.ts',
  'package.json',
  'tsconfig.json',
  'tsconfig.node.json',
  'biome.json',
];
// The examples' own end-to-end test, this guard, which must spell the names it refuses, and the
// linter's fixture project: a frozen copy of the examples' registered form that reads nothing of
// them, so deleting the examples leaves it as it is.
const EXAMPLES_OWN = [
  'e2e/examples.test.ts',
  'scripts/test/framework.test.ts',
  'scripts/test/lint/fixtures/project.json',
];
const BUILT = /(^|\/)(dist|node_modules)\//;

/** Settings only the examples read: the CLI and framework must not wire them. */
const EXAMPLE_SETTINGS = ['STORE_API_URL', 'STORE_API_KEY', 'HANDOFF_CONTACT_ID', 'HANDOFF_CHANNEL'];

/** The names in the first column of the README's Examples table. */
const exampleNames = (readme: string): string[] => {
  const section = /^## Examples\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1] ?? '';
  return [...section.matchAll(/^\| `([a-z][a-z0-9_]*)` \|/gm)].map((match) => match[1] as string);
};

/** Every file under the framework's paths, relative to the project, outside the examples' own. */
const frameworkFiles = (): string[] =>
  FRAMEWORK.flatMap((path) => {
    const full = join(PROJECT_ROOT, path);
    const stat = statSync(full, { throwIfNoEntry: false });
    if (!stat) return [];
    if (stat.isFile()) return [path];
    return readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(PROJECT_ROOT.length).replace(/^\//, ''));
  }).filter((file) => !EXAMPLES_OWN.some((own) => file.startsWith(own)) && !BUILT.test(file));

/** `line: name` for every line of `text` that names one of `names` as a whole word. */
const mentionsIn = (text: string, names: readonly string[]): string[] => {
  if (names.length === 0) return [];
  const word = new RegExp(`(?<![A-Za-z0-9_])(${names.join('|')})(?![A-Za-z0-9_])`);
  return text.split('\n').flatMap((line, i) => {
    const name = word.exec(line)?.[1];
    return name ? [`${i + 1}: ${name}`] : [];
  });
};

describe("the framework's files", () => {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const names = [...exampleNames(readme), ...EXAMPLE_SETTINGS];

  it('take the examples from the README, one per row of its Examples table', () => {
    const table = '## Examples\n\n| function |\n| --- |\n| `a_fn` | x |\n| `b_fn` | y |\n\n## Next\n| `c_fn` |';
    expect(exampleNames(table)).toEqual(['a_fn', 'b_fn']);
    expect(exampleNames('## Examples\n\n| `a_fn` | last section |\n')).toEqual(['a_fn']);
    // A README with an Examples section must list them in this shape, or the check below checks nothing.
    if (/^## Examples$/m.test(readme)) expect(names.length).toBeGreaterThan(0);
  });

  it('find a name as a whole word only, paths included', () => {
    const text = "import x from '../functions/a_fn.ts';\nconst b = 'a_fn_v2';\ncall('b_fn')";
    expect(mentionsIn(text, ['a_fn', 'b_fn'])).toEqual(['1: a_fn', '3: b_fn']);
  });

  it('name no example function, so the examples go without an edit there', () => {
    const files = frameworkFiles();
    expect(files).toEqual(
      expect.arrayContaining(['src/worker.ts', 'scripts/dev/main.ts', 'vitest.config.ts', 'src/test/fixture.ts']),
    );
    expect(files.filter((file) => BUILT.test(file))).toEqual([]);
    expect(files.filter((file) => EXAMPLES_OWN.some((own) => file.startsWith(own)))).toEqual([]);
    const found = files.flatMap((file) =>
      mentionsIn(readFileSync(join(PROJECT_ROOT, file), 'utf8'), names).map((hit) => `${file}:${hit}`),
    );
    expect(found, 'a framework file names an example (see the top of this file)').toEqual([]);
  });
});
