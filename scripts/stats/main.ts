// `npm run stats`: per account and function, what the functions did in a window: calls, outcomes
// and top codes, duration percentiles, timeouts, repeats, deferred work and follow-ups, approvals.
// Without --env from the running `npm run dev` (its console's GET /api/stats), with --env NAME from
// that environment's Workers Analytics Engine dataset (deployed.ts). docs/observability.md.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CommandIo } from '../io.ts';
import { readDevState } from '../project/devState.ts';
import { projectRoot } from '../project/paths.ts';
import { paintFor } from '../sync/paint.ts';
import { environmentOf, readWranglerConfig } from '../wrangler.ts';
import type { StatsQuery } from './aggregate.ts';
import { datasetOf, deployedStats, StatsProblem, sqlApiOf } from './deployed.ts';
import type { Grouping, StatsAnswer } from './figures.ts';
import { formatCsv, formatTable } from './format.ts';
import { DEFAULT_SINCE, queryOf, searchOf } from './window.ts';

export const HELP = `Usage: npm run stats -- [options]

Prints, per account and function, what the functions did: calls; ok, refused and errors with the
top codes; p50, p95 and p99 durations; timeouts; repeats answered from the ledger; deferred calls
and their follow-ups sent or failed; approvals asked, approved, denied and expired.

Without --env it reads the running npm run dev; with --env NAME the deployed Worker of that
environment, from Workers Analytics Engine (needs CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_API_TOKEN
with Account Analytics: Read; also read from .env, or .env.NAME).

Options:
  --account a,b       Only these accounts.
  --function f,g      Only these functions (or event types).
  --since WHEN        Start of the window: 1h, 24h, 7d (any number of m, h or d) or a date such
                      as 2026-11-01 (midnight UTC) or an ISO time; default ${DEFAULT_SINCE}.
  --until DATE        End of the window (excluded); default now.
  --by WHAT           One row per account, per account and function (function, the default), or
                      per account, function and version (version).
  --env NAME          Read the deployed Worker of that environment (production: the top level).
  --json              One JSON document: { since, until, rows: [...] }.
  --csv               CSV with every figure. An invoice's usage table:
                      npm run stats -- --env production --by account --since 2026-11-01 --until 2026-12-01 --csv
  -h, --help          Show this help.
`;

export interface StatsArgs {
  help: boolean;
  env: string | undefined;
  json: boolean;
  csv: boolean;
  query: StatsQuery;
}

/**
 * Parses the flags against `now`; throws a one-line error for anything unknown or malformed.
 * @example parseStatsArgs(['--since', '1h', '--json'], Date.now()).query.since
 */
export const parseStatsArgs = (argv: string[], now: number): StatsArgs => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      env: { type: 'string', short: 'e' },
      account: { type: 'string', multiple: true },
      function: { type: 'string', multiple: true },
      since: { type: 'string' },
      until: { type: 'string' },
      by: { type: 'string' },
      json: { type: 'boolean', default: false },
      csv: { type: 'boolean', default: false },
    },
  });
  if (positionals.length > 0) throw new Error(`Unexpected argument "${positionals[0]}"; see --help.`);
  if (values.json && values.csv) throw new Error('Choose one of --json and --csv.');
  return {
    help: values.help,
    env: environmentOf(values.env),
    json: values.json,
    csv: values.csv,
    query: queryOf(
      { since: values.since, until: values.until, by: values.by, accounts: values.account, functions: values.function },
      now,
    ),
  };
};

export interface StatsIo extends CommandIo {
  fetch?: typeof fetch;
  now?: number;
}

const DEV_NOT_RUNNING =
  'npm run dev is not running in this project: start it (npm run dev, in another terminal) to see the local figures, or pass --env NAME for a deployed Worker.';

/** The running dev's figures, from its console. */
const localStats = async (query: StatsQuery, root: string, fetcher: typeof fetch): Promise<StatsAnswer> => {
  const consoleUrl = readDevState(root)?.consoleUrl;
  if (!consoleUrl) throw new StatsProblem(DEV_NOT_RUNNING);
  let response: Response;
  try {
    response = await fetcher(new URL(`/api/stats?${searchOf(query)}`, consoleUrl), {
      signal: AbortSignal.timeout(30_000),
    });
  } catch {
    throw new StatsProblem(`${DEV_NOT_RUNNING} (Its console at ${consoleUrl} does not answer.)`);
  }
  if (response.status === 404) {
    throw new StatsProblem(
      'The running npm run dev is older than npm run stats: restart it (Ctrl-C, then npm run dev).',
    );
  }
  const body = (await response.json().catch(() => ({}))) as Partial<StatsAnswer> & { error?: string };
  if (!response.ok || !Array.isArray(body.rows)) {
    throw new StatsProblem(`npm run dev's console answered ${response.status}: ${body.error ?? 'no figures'}.`);
  }
  return body as StatsAnswer;
};

/** The deployed figures of environment `env` (undefined: production, the top level). */
const remoteStats = async (
  query: StatsQuery,
  env: string | undefined,
  io: StatsIo,
  root: string,
): Promise<StatsAnswer> => {
  const config = readWranglerConfig(root, env);
  const api = sqlApiOf(io.env, datasetOf(config));
  const rows = await deployedStats(query, api, io.fetch ?? fetch);
  return { since: new Date(query.since).toISOString(), until: new Date(query.until).toISOString(), rows };
};

/** `--env production` names the top level of wrangler.toml, as no --env does for deploy. */
const wranglerEnvOf = (env: string) => (env === 'production' ? undefined : env);

/**
 * Runs the command; returns the exit code (1 with a reason when the figures cannot be read).
 * @example process.exitCode = await runStats(['--since', '1h'], { stdout: process.stdout, stderr: process.stderr, env: process.env })
 */
export const runStats = async (argv: string[], io: StatsIo): Promise<number> => {
  let args: StatsArgs;
  try {
    args = parseStatsArgs(argv, io.now ?? Date.now());
  } catch (error) {
    io.stderr.write(`${(error as Error).message.replace(/;? ?see --help\.?$/, '')} See npm run stats -- --help.\n`);
    return 2;
  }
  if (args.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const root = io.root ?? projectRoot();
  let answer: StatsAnswer;
  try {
    answer =
      args.env === undefined
        ? await localStats(args.query, root, io.fetch ?? fetch)
        : await remoteStats(args.query, wranglerEnvOf(args.env), io, root);
  } catch (error) {
    if (!(error instanceof StatsProblem)) throw error;
    io.stderr.write(`${paintFor(io.stderr).red(error.message)}\n`);
    return 1;
  }
  const by: Grouping = args.query.by;
  if (args.json) io.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  else if (args.csv) io.stdout.write(formatCsv(answer, by));
  else {
    const source = args.env === undefined ? 'the running npm run dev' : `environment ${args.env}`;
    io.stdout.write(formatTable(answer, by, source, paintFor(io.stdout)));
  }
  return 0;
};

/** `agent-functions stats`: with --env NAME, loads .env.NAME (.env for production) first, as sync does. */
export const main = (argv: string[]): Promise<number> => {
  let env: string | undefined;
  try {
    env = parseStatsArgs(argv, Date.now()).env;
  } catch {
    // Bad flags are reported by runStats.
  }
  const file = env && join(projectRoot(), env === 'production' ? '.env' : `.env.${env}`);
  if (file && existsSync(file)) process.loadEnvFile(file);
  return runStats(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env });
};
