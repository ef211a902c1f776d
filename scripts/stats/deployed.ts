// `npm run stats -- --env NAME`: the deployed Worker's figures from the Workers Analytics Engine SQL
// API (POST /client/v4/accounts/{account id}/analytics_engine/sql, bearer token with Account
// Analytics: Read), in the dataset the environment's wrangler.toml names. Every failure is a
// StatsProblem whose message says what to do.
import type { StatsQuery } from './aggregate.ts';
import type { StatsRow } from './figures.ts';
import { rowsOfSql, SQL_NAME, statsQueries } from './sql.ts';

/** The dataset the metrics option writes when wrangler.toml names none (docs/observability.md). */
export const DEFAULT_DATASET = 'agent_functions_calls';
/** The binding the metrics option writes through. */
export const DATASET_BINDING = 'CALL_RECORDS';
/** Cloudflare's API, unless CLOUDFLARE_API_BASE_URL says otherwise (as for wrangler). */
export const CLOUDFLARE_API = 'https://api.cloudflare.com/client/v4';

/** A reason the figures cannot be read, said so a person can act on it; the command exits 1. */
export class StatsProblem extends Error {}

export interface SqlApi {
  base: string;
  accountId: string;
  token: string;
  dataset: string;
}

const TOKEN_HELP =
  'an API token with the permission Account | Account Analytics | Read (create one at https://dash.cloudflare.com/profile/api-tokens)';

/**
 * Where and how to ask, from the environment's variables; throws a StatsProblem naming what is missing.
 * @example sqlApiOf(process.env, 'agent_functions_calls')
 */
export const sqlApiOf = (env: NodeJS.ProcessEnv, dataset: string): SqlApi => {
  const token = env.CLOUDFLARE_API_TOKEN?.trim();
  const accountId = env.CLOUDFLARE_ACCOUNT_ID?.trim();
  if (!token) {
    throw new StatsProblem(
      `CLOUDFLARE_API_TOKEN is not set: the deployed figures are read from Workers Analytics Engine, which needs ${TOKEN_HELP}. Set it in the environment, or in .env (.env.NAME for --env NAME).`,
    );
  }
  if (!accountId) {
    throw new StatsProblem(
      'CLOUDFLARE_ACCOUNT_ID is not set: set it to the id of the Cloudflare account the Worker is deployed in (the dashboard shows it on the Workers overview, or npx wrangler whoami).',
    );
  }
  if (!/^[0-9a-f]{32}$/i.test(accountId)) {
    throw new StatsProblem(`CLOUDFLARE_ACCOUNT_ID must be a 32-character account id, not "${accountId.slice(0, 40)}".`);
  }
  if (!SQL_NAME.test(dataset) || /[.:-]/.test(dataset)) {
    throw new StatsProblem(`The Analytics Engine dataset name "${dataset}" in wrangler.toml is not a plain name.`);
  }
  return { base: (env.CLOUDFLARE_API_BASE_URL || CLOUDFLARE_API).replace(/\/+$/, ''), accountId, token, dataset };
};

/** The first line of the API's answer, for a message (its `errors[0].message` when it is JSON). */
const reasonOf = (text: string): string => {
  try {
    const body = JSON.parse(text) as { errors?: Array<{ message?: unknown }> };
    const message = body.errors?.[0]?.message;
    if (typeof message === 'string') return message.slice(0, 200);
  } catch {
    // Plain text.
  }
  return (text.trim().split('\n')[0] ?? '').slice(0, 200) || 'no reason given';
};

const noDataYet = (dataset: string) =>
  `The Analytics Engine dataset "${dataset}" has no data yet: the Worker writes to it once the metrics option is on and it has been called (docs/observability.md). Deploy, make a call, and try again in a minute.`;

const NO_TABLE = /unknown table|table .*(not found|does not exist|doesn't exist)|dataset .*(not found|does not exist)/i;

/** Runs one query; the rows of its JSON answer. */
export const runSql = async (api: SqlApi, sql: string, fetcher: typeof fetch = fetch): Promise<unknown[]> => {
  let response: Response;
  try {
    response = await fetcher(`${api.base}/accounts/${api.accountId}/analytics_engine/sql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.token}`, 'content-type': 'text/plain' },
      body: sql,
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new StatsProblem(`Cannot reach Cloudflare's SQL API at ${api.base} (${(error as Error).message}).`);
  }
  const text = await response.text();
  const reason = reasonOf(text);
  if (NO_TABLE.test(text)) throw new StatsProblem(noDataYet(api.dataset));
  if (response.status === 401 || response.status === 403 || /authenticat|permission|unauthori/i.test(reason)) {
    throw new StatsProblem(
      `Cloudflare refused the token (${response.status}: ${reason}): reading the figures needs ${TOKEN_HELP}, for account ${api.accountId}.`,
    );
  }
  if (response.status === 404) {
    throw new StatsProblem(
      `Cloudflare knows no account ${api.accountId} (404: ${reason}): check CLOUDFLARE_ACCOUNT_ID.`,
    );
  }
  if (!response.ok) throw new StatsProblem(`Cloudflare's SQL API answered ${response.status}: ${reason}.`);
  try {
    const data = (JSON.parse(text) as { data?: unknown }).data;
    if (Array.isArray(data)) return data;
  } catch {
    // Reported below.
  }
  throw new StatsProblem(`Cloudflare's SQL API answered something that is not its JSON: ${reason}.`);
};

/**
 * The rows of the deployed Worker's records in the query's window: three queries at once.
 * @example await deployedStats({ since, until, by: 'function' }, sqlApiOf(process.env, DEFAULT_DATASET))
 */
export const deployedStats = async (
  query: StatsQuery,
  api: SqlApi,
  fetcher: typeof fetch = fetch,
): Promise<StatsRow[]> => {
  const sql = statsQueries(query, api.dataset);
  const [figures, percentiles, codes] = await Promise.all(
    [sql.figures, sql.percentiles, sql.codes].map((text) => runSql(api, text, fetcher)),
  );
  const rows = rowsOfSql(query, {
    figures: figures as Record<string, unknown>[],
    percentiles: percentiles as Record<string, unknown>[],
    codes: codes as Record<string, unknown>[],
  });
  // Nothing in the window: an empty dataset is a problem to name, a quiet window is not.
  if (rows.length === 0) {
    const [total] = (await runSql(api, sql.total, fetcher)) as Array<{ n?: unknown }>;
    if (!Number(total?.n)) throw new StatsProblem(noDataYet(api.dataset));
  }
  return rows;
};

/**
 * The dataset of `config` (wrangler.toml read for the environment): the one bound as CALL_RECORDS,
 * else the only one, else the default.
 * @example datasetOf(readWranglerConfig(root, 'staging'))
 */
export const datasetOf = (config: { analytics_engine_datasets?: Array<{ binding: string; dataset?: string }> }) => {
  const datasets = config.analytics_engine_datasets ?? [];
  const chosen =
    datasets.find((entry) => entry.binding === DATASET_BINDING) ?? (datasets.length === 1 ? datasets[0] : undefined);
  // wrangler names a dataset after its binding when it says no name.
  return chosen ? (chosen.dataset ?? chosen.binding) : DEFAULT_DATASET;
};
