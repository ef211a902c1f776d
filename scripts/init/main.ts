// `agent-functions init <dir> [--no-examples]`: a new project in a new (or empty) folder, either the
// example project of this package's template or a bare one with a single function. It writes files
// only: the next steps it prints install and test them.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { styleText } from 'node:util';
import { firstCommit } from './git.ts';
import { type LocalPackages, PACKAGES_DIR, packLocalPackages, writeLocalLockfile } from './localPackages.ts';
import { newProject, projectName } from './project.ts';
import { ownTemplate } from './template.ts';

export const HELP = `Usage: agent-functions init <dir> [--no-examples] [--local-packages]

Creates a project of agent functions in <dir>, a new or empty folder: worker.ts, functions/ with
their tests, wrangler.toml, package.json and the tools' settings, ready for npm install.

  <dir>          the new project's folder; its name becomes the Worker's and the package's name
  --no-examples  a bare project: one function and its test, no events, no Durable Objects
  --local-packages
                 from a clone of agent-functions (its npm run init -- <dir>): packs the clone's
                 agent-functions and agent-functions-cli into <dir>/packages/ and depends on
                 those files, until the packages are published (docs/publishing.md)
  -h, --help     this text

By default the project holds the examples (functions, event handlers, their helpers and tests), to
read, keep or delete. The folder becomes a git repository with a first commit, unless it is inside
one already. Then: cd <dir> && npm install && npm test && npm run dev
`;

/** Why the project cannot be written in `dir`, or undefined when it can. */
export const refusal = (dir: string): string | undefined => {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return `${dir} is a file, not a folder: choose a new folder for the project.`;
  if (readdirSync(dir).length > 0) return `${dir} is not empty: choose a new folder, or empty this one.`;
  return undefined;
};

/** Writes the project's files into `dir` (which refusal() accepted); returns their paths. */
export const init = (dir: string, options: { examples: boolean; local?: LocalPackages }): string[] => {
  const files = newProject(ownTemplate(), {
    name: projectName(dir),
    examples: options.examples,
    ...(options.local ? { local: options.local } : {}),
  });
  for (const [path, text] of files) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    // 'wx': never overwrite, even a file that appeared since the check.
    writeFileSync(join(dir, path), text, { flag: 'wx' });
  }
  return [...files.keys()];
};

/** A shell word for `dir` as the user typed it (quoted when it needs to be). */
const shellWord = (dir: string): string => (/^[\w./~+-]+$/.test(dir) ? dir : `'${dir.replaceAll("'", `'\\''`)}'`);

/** `agent-functions init`: 0 written, 1 refused, 2 usage. */
export const main = (
  argv: string[],
  out: NodeJS.WriteStream = process.stdout,
  err: NodeJS.WriteStream = process.stderr,
): number => {
  const paint = (style: Parameters<typeof styleText>[0], text: string, stream: NodeJS.WriteStream) =>
    styleText(style, text, { stream, validateStream: true });
  const usage = (message: string) => {
    err.write(`${paint('red', message, err)}\n\n${HELP}`);
    return 2;
  };
  if (argv.includes('--help') || argv.includes('-h')) {
    out.write(HELP);
    return 0;
  }
  const dirs: string[] = [];
  let examples = true;
  let localPackages = false;
  for (const arg of argv) {
    if (arg === '--no-examples') examples = false;
    else if (arg === '--local-packages') localPackages = true;
    else if (arg.startsWith('-')) return usage(`Unknown option ${arg}.`);
    else dirs.push(arg);
  }
  if (dirs.length === 0) return usage('Say where: agent-functions init <dir>.');
  if (dirs.length > 1) return usage('Give one folder.');
  // `npm run init -- ../my-agent` runs in the checkout's root: a relative folder is the user's (INIT_CWD).
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), dirs[0] as string);
  const refused = refusal(dir);
  if (refused) {
    err.write(`${paint('red', 'Nothing was created:', err)} ${refused}\n`);
    return 1;
  }
  let local: LocalPackages | undefined;
  if (localPackages) {
    const existed = existsSync(dir);
    try {
      local = packLocalPackages(dir);
    } catch (error) {
      rmSync(existed ? join(dir, PACKAGES_DIR) : dir, { recursive: true, force: true });
      err.write(`${paint('red', 'Nothing was created:', err)} ${(error as Error).message}\n`);
      return 1;
    }
  }
  const files = init(dir, { examples, ...(local ? { local } : {}) });
  // The checkout's versions, so the new project installs from npm's cache, offline.
  if (local) writeLocalLockfile(dir, JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
  const repository = firstCommit(dir);
  const functions = files.filter((path) => /^functions\/[^_/][^/]*\.ts$/.test(path) && !path.endsWith('.prompts.ts'));
  const what = examples ? `the examples (${functions.length} functions)` : `one function, ${functions[0]}`;
  const packed = local
    ? `\n${PACKAGES_DIR}/ holds this checkout's agent-functions and agent-functions-cli, which package.json
depends on until they are published (keep the folder in git, so that CI installs them too).\n`
    : '';
  out.write(
    `${paint('green', '✓', out)} Created ${dir} with ${files.length} files: ${what}.
${repository}
${packed}
Next steps:
  cd ${shellWord(dir)} && npm install && npm test && npm run dev

npm test type-checks, lints and runs every test; npm run dev serves every function locally with a
local platform and a console. README.md in the project lists the other commands.
`,
  );
  return 0;
};
