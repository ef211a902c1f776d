// `npx node e2e/readme/check.ts`: runs the README's "Quick start" and "Write your first function" as
// a newcomer would, command by command as written, in a throw-away copy of the project, and fails
// on the first command that does not do what the README says. Step 2 (writing the function) is
// the one thing typed in an editor: the check replaces the scaffold's placeholder description.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs, styleText } from 'node:util';
import { PLACEHOLDER_DESCRIPTION } from '../../scripts/project/templates.ts';
import { PROJECT_ROOT } from '../../scripts/test/repo.ts';
import { commandsOf, type ReadmeCommand, sectionOf } from './commands.ts';

const HELP = `Usage: npx node e2e/readme/check.ts [--ports <first>] [--skip-npm-test] [--keep]

Runs every command of the README's "Quick start" and "Write your first function" in a copy of the
project (node_modules hard-linked, so npm install cannot touch yours), in order, as written.

  --ports <first>   run npm run dev on <first>..<first>+3 (Worker, inspector, platform, console)
                    instead of the defaults, and call the Worker there (the only change made)
  --skip-npm-test   do not run the full npm test (minutes); everything else still runs
  --keep            keep the copy afterwards, and print where it is
  -h, --help        this text
`;

/** What the README asks for that needs an account, so a local check cannot run it. */
const NEEDS_ACCOUNT = [/^npx wrangler (login|secret put)/, /^npm run deploy/, /^npm run sync/];

const { values } = parseArgs({
  options: {
    ports: { type: 'string' },
    'skip-npm-test': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const first = values.ports === undefined ? undefined : Number(values.ports);
if (first !== undefined && !(Number.isInteger(first) && first > 0 && first < 65_530)) {
  process.stderr.write('--ports wants a port number.\n');
  process.exit(2);
}

const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
const steps: ReadmeCommand[] = [
  ...commandsOf(sectionOf(readme, '## Quick start'), { inline: false }),
  ...commandsOf(sectionOf(readme, '## Write your first function'), { inline: true }),
];

const dir = mkdtempSync(join(tmpdir(), 'agent-functions-readme-'));
cpSync(PROJECT_ROOT, dir, {
  recursive: true,
  filter: (source) =>
    !['node_modules', '.git', '.wrangler', 'test-results', '.env', '.dev.vars', 'generated'].includes(
      relative(PROJECT_ROOT, source).split('/')[0] ?? '',
    ),
});
spawnSync('cp', ['-al', join(PROJECT_ROOT, 'node_modules'), join(dir, 'node_modules')]);

const withPorts = (command: string): string => {
  if (first === undefined) return command;
  if (command === 'npm run dev') {
    return `npm run dev -- --port ${first} --inspector-port ${first + 1} --platform-port ${first + 2} --console-port ${first + 3}`;
  }
  return command.replaceAll('127.0.0.1:8787', `127.0.0.1:${first}`);
};

let dev: ChildProcess | undefined;
let devOutput = '';
const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(-pid, name);
  } catch {
    // Already gone.
  }
};
const stopDev = async () => {
  if (dev?.pid && dev.exitCode === null) {
    signal(dev.pid, 'SIGINT');
    for (let i = 0; i < 50 && dev.exitCode === null; i++) await sleep(200);
    if (dev.exitCode === null) signal(dev.pid, 'SIGKILL');
  }
  dev = undefined;
};
const startDev = async (command: string) => {
  await stopDev();
  devOutput = '';
  dev = spawn('sh', ['-c', command], { cwd: dir, detached: true });
  dev.stdout?.setEncoding('utf8').on('data', (chunk: string) => (devOutput += chunk));
  dev.stderr?.setEncoding('utf8').on('data', (chunk: string) => (devOutput += chunk));
  for (let i = 0; i < 900; i++) {
    if (devOutput.includes('edit functions/ or events/ and it re-syncs')) return '';
    if (dev.exitCode !== null) break;
    await sleep(200);
  }
  return `npm run dev never became ready:\n${devOutput}`;
};

let failed = 0;
let ran = 0;
const skipped: string[] = [];
const say = (mark: string, colour: 'green' | 'yellow' | 'red', text: string) =>
  process.stdout.write(`${styleText(colour, mark)} ${text}\n`);

try {
  for (const step of steps) {
    const command = withPorts(step.command);
    if (NEEDS_ACCOUNT.some((pattern) => pattern.test(step.command))) {
      skipped.push(step.command);
      say('-', 'yellow', `${step.command}  (needs a Cloudflare or platform account: not run here)`);
      continue;
    }
    if (step.command === 'npm test' && values['skip-npm-test']) {
      skipped.push(step.command);
      say('-', 'yellow', `${step.command}  (--skip-npm-test)`);
      continue;
    }
    ran++;
    let problem = '';
    if (/^npm run dev\b/.test(step.command)) problem = await startDev(command);
    else {
      const run = spawnSync('sh', ['-c', command], { cwd: dir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (run.status !== 0) problem = `exit ${run.status}\n${run.stdout.slice(-3000)}${run.stderr.slice(-3000)}`;
      else if (step.expect !== undefined && run.stdout.trim() !== step.expect) {
        problem = `the README shows\n  ${step.expect}\nbut it printed\n  ${run.stdout.trim()}`;
      }
    }
    // Step 2, "Fill in the form": what the newcomer types in the editor.
    const created = /^npm run new -- ([a-z][a-z0-9_]*)$/.exec(step.command)?.[1];
    const file = created && join(dir, 'functions', `${created}.ts`);
    if (!problem && file && !existsSync(file)) problem = `it did not write functions/${created}.ts`;
    else if (!problem && file) {
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace(
          PLACEHOLDER_DESCRIPTION,
          'Answers questions about the warranty of a product. Call it when the customer asks whether something is still covered.',
        ),
      );
    }
    if (problem) {
      failed++;
      say('✗', 'red', `${command}\n${problem}`);
      break;
    }
    say('✓', 'green', command);
  }
} finally {
  await stopDev();
  if (values.keep) process.stdout.write(`The copy is in ${dir}\n`);
  else rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(`\n${ran} command(s) run, ${failed} failed, ${skipped.length} not run.\n`);
process.exitCode = failed > 0 ? 1 : 0;
