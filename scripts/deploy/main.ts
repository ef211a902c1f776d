// `npm run deploy`: the registries, the environment's queues, then `wrangler deploy` naming the
// environment. Wrangler creates a KV namespace on first deploy but not a queue, so a fresh
// account's first deploy of a Worker with events failed on its queue bindings; this creates the
// missing ones first, or says exactly what to run. `--env=` names production (the top level), so
// wrangler does not warn that no environment was given.
import { parseArgs, styleText } from 'node:util';
import type { CommandIo } from '../io.ts';
import { generateForBuild } from '../project/generated.ts';
import { projectRoot } from '../project/paths.ts';
import { envFlags, environmentOf, readWranglerConfig, runWrangler, spawnWrangler, wranglerError } from '../wrangler.ts';

export const HELP = `Usage: npm run deploy [-- [--env NAME] [--queues] [<wrangler deploy flags>]]

Deploys the Worker of an environment of wrangler.toml: writes the registries (agent-functions
generate), makes sure every queue the environment binds exists on the Cloudflare account (its
producers, consumers and dead-letter queues; wrangler creates KV namespaces on its own, not
queues), creating the missing ones, then runs wrangler deploy with that environment.

Options:
  --env NAME     The wrangler.toml environment (for example staging); default production (the top level).
  --queues       Only make sure the queues exist (a preflight); deploy nothing.
  -h, --help     Show this help.
  Any other flag (--dry-run, --outdir dist, ...) is passed to wrangler deploy as given.

When the account cannot be reached (not logged in: npx wrangler login, or CLOUDFLARE_API_TOKEN in
CI), it deploys nothing and prints the exact commands to run.
`;

type Wrangler = (
  args: readonly string[],
  options: { cwd: string; inherit?: boolean },
) => Promise<{ code: number; stdout: string; stderr: string }>;

export interface DeployIo extends Omit<CommandIo, 'env'> {
  /** Writes the registries (default: agent-functions generate). */
  generate?: () => Promise<number>;
  /** Runs wrangler (default: the project's own; `inherit` for deploy, which talks to the terminal). */
  wrangler?: Wrangler;
}

/** wrangler deploy with the terminal's streams, so its progress and any login prompt reach the user. */
const deployInTerminal = (args: readonly string[], cwd: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawnWrangler(args, cwd, 'inherit');
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });

const defaultWrangler: Wrangler = async (args, { cwd, inherit }) =>
  inherit ? { code: await deployInTerminal(args, cwd), stdout: '', stderr: '' } : runWrangler(args, { cwd });

/**
 * Every queue an environment of wrangler.toml binds (producers, consumers, their dead-letter
 * queues), read as wrangler reads it, in order of first mention.
 * @example await queuesOf(root, 'staging') // ['agent-functions-events-staging', 'agent-functions-events-staging-dlq']
 */
export const queuesOf = async (root: string, env: string | undefined): Promise<string[]> => {
  const config = readWranglerConfig(root, env);
  const names = [
    ...(config.queues.producers ?? []).map((producer: { queue: string }) => producer.queue),
    ...(config.queues.consumers ?? []).flatMap((consumer: { queue: string; dead_letter_queue?: string }) => [
      consumer.queue,
      consumer.dead_letter_queue,
    ]),
  ];
  return [...new Set(names.filter((name): name is string => Boolean(name)))];
};

/**
 * Runs the command; returns its exit code (wrangler deploy's own, once it runs).
 * @example process.exitCode = await runDeploy(['--env', 'staging'], { stdout: process.stdout, stderr: process.stderr })
 */
export const runDeploy = async (argv: string[], io: DeployIo): Promise<number> => {
  const say = (text: string) => io.stdout.write(`${text}\n`);
  const fail = (lines: string[]) => {
    for (const line of lines)
      io.stderr.write(`${styleText('red', line, { stream: io.stderr, validateStream: true })}\n`);
    return 1;
  };
  const split = argv.indexOf('--');
  const own = split === -1 ? argv : argv.slice(0, split);
  // Flags of its own are read; any other (--dry-run, --outdir dist, ...) goes to wrangler deploy as given.
  const passed: string[] = [];
  let env: string | undefined;
  let queuesOnly = false;
  try {
    const { values, tokens } = parseArgs({
      args: own,
      strict: false,
      tokens: true,
      allowPositionals: true,
      options: { env: { type: 'string' }, queues: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    for (const token of tokens) {
      if (token.kind === 'positional') passed.push(token.value);
      else if (token.kind === 'option' && !['env', 'queues', 'help'].includes(token.name)) {
        passed.push(token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName);
      }
    }
    if (values.help) {
      io.stdout.write(HELP);
      return 0;
    }
    if (values.env === true)
      throw new Error('--env needs a name, for example --env staging (or --env= for production)');
    env = environmentOf(values.env as string | undefined);
    queuesOnly = values.queues === true;
  } catch (error) {
    return fail([`${(error as Error).message.split('. ')[0]?.replace(/\.$/, '')}. See npm run deploy -- --help.`]);
  }
  if (split !== -1) passed.push(...argv.slice(split + 1));
  const root = io.root ?? projectRoot();
  const wrangler = io.wrangler ?? defaultWrangler;
  const target = env ? `the ${env} environment` : 'production';
  const envArgs = env ? ['--env', env] : [];

  if (!queuesOnly) {
    const generated = await (io.generate ?? defaultGenerate)();
    if (generated !== 0) return generated;
  }

  // wrangler deploy --dry-run builds without an account: so does this, leaving the queues alone.
  const queues = passed.includes('--dry-run') ? [] : await queuesOf(root, env);
  const created: string[] = [];
  for (const [index, name] of queues.entries()) {
    const info = await wrangler(['queues', 'info', name, ...envArgs], { cwd: root });
    if (info.code === 0) continue;
    const infoText = `${info.stderr}\n${info.stdout}`;
    const made = /does not exist/i.test(infoText)
      ? await wrangler(['queues', 'create', name, ...envArgs], { cwd: root })
      : info;
    if (made.code !== 0) {
      return fail([
        `Could not make sure the queues of ${target} exist: ${wranglerError(`${made.stderr}\n${made.stdout}`)}`,
        `Nothing was deployed. Once logged in (npx wrangler login; in CI, CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID), run npm run deploy${env ? ` -- --env ${env}` : ''} again, or create ${queues.length - index === 1 ? 'it' : 'them'} yourself:`,
        ...queues.slice(index).map((queue) => `  npx wrangler queues create ${queue}`),
      ]);
    }
    created.push(name);
    say(`Created the queue ${name} (${target}).`);
  }
  if (queues.length > 0 && created.length === 0) say(`The queues of ${target} exist: ${queues.join(', ')}.`);
  if (queuesOnly) return 0;
  const deployed = await wrangler(['deploy', ...envFlags(env), ...passed], { cwd: root, inherit: true });
  return deployed.code;
};

const defaultGenerate = async (): Promise<number> => {
  try {
    await generateForBuild(projectRoot());
    return 0;
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  }
};

/** `agent-functions deploy`. */
export const main = (argv: string[]): Promise<number> =>
  runDeploy(argv, { stdout: process.stdout, stderr: process.stderr });
