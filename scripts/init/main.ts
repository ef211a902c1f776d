// `agent-functions init <dir> [--no-examples]`: a new project in a new (or empty) folder, either the
// example project of this package's template or a bare one with a single function. It writes files
// only: the next steps it prints install and test them.
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { styleText } from 'node:util';
import { newProject, projectName } from './project.ts';
import { ownTemplate } from './template.ts';

export const HELP = `Usage: agent-functions init <dir> [--no-examples]

Creates a project of agent functions in <dir>, a new or empty folder: worker.ts, functions/ with
their tests, wrangler.toml, package.json and the tools' settings, ready for npm install.

  <dir>          the new project's folder; its name becomes the Worker's and the package's name
  --no-examples  a bare project: one function and its test, no events, no Durable Objects
  -h, --help     this text

By default the project holds the examples (functions, event handlers, their helpers and tests), to
read, keep or delete. Then: cd <dir> && npm install && npm test && npm run dev
`;

/** Why the project cannot be written in `dir`, or undefined when it can. */
export const refusal = (dir: string): string | undefined => {
  if (!existsSync(dir)) return undefined;
  if (!statSync(dir).isDirectory()) return `${dir} is a file, not a folder: choose a new folder for the project.`;
  if (readdirSync(dir).length > 0) return `${dir} is not empty: choose a new folder, or empty this one.`;
  return undefined;
};

/** Writes the project's files into `dir` (which refusal() accepted); returns their paths. */
export const init = (dir: string, options: { examples: boolean }): string[] => {
  const files = newProject(ownTemplate(), { name: projectName(dir), examples: options.examples });
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
  for (const arg of argv) {
    if (arg === '--no-examples') examples = false;
    else if (arg.startsWith('-')) return usage(`Unknown option ${arg}.`);
    else dirs.push(arg);
  }
  if (dirs.length === 0) return usage('Say where: agent-functions init <dir>.');
  if (dirs.length > 1) return usage('Give one folder.');
  const dir = dirs[0] as string;
  const refused = refusal(dir);
  if (refused) {
    err.write(`${paint('red', 'Nothing was created:', err)} ${refused}\n`);
    return 1;
  }
  const files = init(dir, { examples });
  const functions = files.filter((path) => /^functions\/[^_/][^/]*\.ts$/.test(path));
  const what = examples ? `the examples (${functions.length} functions)` : `one function, ${functions[0]}`;
  out.write(
    `${paint('green', '✓', out)} Created ${dir} with ${files.length} files: ${what}.

Next steps:
  cd ${shellWord(dir)} && npm install && npm test && npm run dev

npm test type-checks, lints and runs every test; npm run dev serves every function locally with a
local platform and a console. README.md in the project lists the other commands.
`,
  );
  return 0;
};
