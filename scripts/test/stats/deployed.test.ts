// npm run stats -- --env NAME: the deployed figures from the Workers Analytics Engine SQL API (a
// stand-in over real HTTP that evaluates the queries): the request it sends, counts weighted by the
// sample interval, the same rows as the local path from the same records, and a reason a person can
// act on for each way it can fail.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordColumn } from 'agent-functions/internal';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { aggregate } from '../../stats/aggregate.ts';
import { runStats } from '../../stats/main.ts';
import { capture } from '../capture.ts';
import { record, twoClients } from './records.ts';
import { pointOf, startSqlApi } from './sqlApiDouble.ts';

const ACCOUNT_ID = '0123456789abcdef0123456789abcdef';
const DATASET = 'acme_agency_calls';
let api: Awaited<ReturnType<typeof startSqlApi>>;
let root: string;
const now = Date.now();

beforeAll(async () => {
  api = await startSqlApi(DATASET);
  root = mkdtempSync(join(tmpdir(), 'stats-deployed-'));
  writeFileSync(
    join(root, 'wrangler.toml'),
    `name = "agency"\nmain = "worker.ts"\ncompatibility_date = "2026-11-01"\n\n[[analytics_engine_datasets]]\nbinding = "CALL_RECORDS"\ndataset = "${DATASET}"\n`,
  );
});
afterAll(async () => {
  await api.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  api.requests.length = 0;
  delete api.state.failWith;
  api.state.points = [];
});

const env = (overrides: Record<string, string | undefined> = {}) => ({
  CLOUDFLARE_API_TOKEN: 'analytics-read-token',
  CLOUDFLARE_ACCOUNT_ID: ACCOUNT_ID,
  CLOUDFLARE_API_BASE_URL: api.url,
  ...overrides,
});

const stats = async (argv: string[], variables = env()) => {
  const out = capture();
  const err = capture();
  const code = await runStats(argv, { stdout: out.stream, stderr: err.stream, env: variables, root });
  return { code, stdout: out.text(), stderr: err.text() };
};

describe('npm run stats --env, from the Analytics Engine SQL API', () => {
  it("asks the account's SQL API with the token, on the dataset of wrangler.toml, in the layout's columns", async () => {
    api.state.points = [pointOf(record(), now - 1000)];
    expect((await stats(['--env', 'production', '--json', '--account', 'client-acme'])).code).toBe(0);
    // The figures, the percentiles and the codes; the dataset's total only when the window is empty.
    expect(api.requests).toHaveLength(3);
    for (const request of api.requests) {
      expect(request.path).toBe(`/client/v4/accounts/${ACCOUNT_ID}/analytics_engine/sql`);
      expect(request.authorization).toBe('Bearer analytics-read-token');
      expect(request.sql).toContain(`FROM ${DATASET} WHERE timestamp >= toDateTime(`);
      expect(request.sql).toContain(`${recordColumn('account')} = 'client-acme'`);
      expect(request.sql).toContain(`GROUP BY ${recordColumn('account')}, ${recordColumn('function')}`);
      // Every count is weighted: a plain count() undercounts a sampled dataset.
      expect(request.sql).not.toMatch(/count\(/i);
    }
    const sql = api.requests.map((request) => request.sql).join('\n');
    expect(sql).toContain(`quantileExactWeighted(0.95)(${recordColumn('durationMs')}, _sample_interval)`);
    expect(sql).toContain(`sumIf(_sample_interval, (${recordColumn('kind')} = 'call' OR`);
  });

  it('weights each data point by its sample interval', async () => {
    api.state.points = [
      pointOf(record({ outcome: 'error', status: 502, code: 'upstream_failed', durationMs: 900 }), now - 1000, 10),
      pointOf(record({ outcome: 'error', status: 502, code: 'upstream_failed', durationMs: 800 }), now - 1000, 10),
      pointOf(record({ durationMs: 20 }), now - 1000, 5),
    ];
    const { code, stdout } = await stats(['--env', 'production', '--json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).rows).toEqual([
      expect.objectContaining({
        account: 'client-acme',
        function: 'find_parcel',
        calls: 25,
        ok: 5,
        errors: 20,
        codes: { upstream_failed: 20 },
        p50Ms: 800,
        p95Ms: 900,
      }),
    ]);
  });

  it('gives the same rows as the local path for the same records', async () => {
    const records = [...twoClients(now - 60_000), record({}, now - 48 * 3_600_000)];
    api.state.points = records.map((r) => pointOf(r, r.at));
    for (const by of ['function', 'account', 'version'] as const) {
      const { code, stdout } = await stats(['--env', 'production', '--json', '--by', by]);
      expect(code).toBe(0);
      const { since, until, rows } = JSON.parse(stdout);
      expect(rows).toEqual(aggregate(records, { since: Date.parse(since), until: Date.parse(until), by }));
    }
  });

  it('says which variable is missing, before asking anything', async () => {
    const noToken = await stats(['--env', 'production'], env({ CLOUDFLARE_API_TOKEN: undefined }));
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toContain('CLOUDFLARE_API_TOKEN is not set');
    expect(noToken.stderr).toContain('Account | Account Analytics | Read');
    const noAccount = await stats(['--env', 'production'], env({ CLOUDFLARE_ACCOUNT_ID: '' }));
    expect(noAccount).toMatchObject({ code: 1, stderr: expect.stringContaining('CLOUDFLARE_ACCOUNT_ID is not set') });
    expect(api.requests).toHaveLength(0);
  });

  it('says the token lacks the scope when Cloudflare refuses it', async () => {
    api.state.failWith = {
      status: 403,
      body: JSON.stringify({ success: false, errors: [{ code: 10000, message: 'Authentication error' }] }),
    };
    const { code, stderr } = await stats(['--env', 'production']);
    expect(code).toBe(1);
    expect(stderr).toContain('Cloudflare refused the token (403: Authentication error)');
    expect(stderr).toContain('Account | Account Analytics | Read');
    expect(stderr).not.toContain('analytics-read-token');
  });

  it('says the dataset has no data yet when the table does not exist', async () => {
    writeFileSync(
      join(root, 'wrangler.toml'),
      `name = "agency"\nmain = "worker.ts"\ncompatibility_date = "2026-11-01"\n\n[env.staging]\n[[env.staging.analytics_engine_datasets]]\nbinding = "CALL_RECORDS"\ndataset = "staging_calls"\n\n[[analytics_engine_datasets]]\nbinding = "CALL_RECORDS"\ndataset = "${DATASET}"\n`,
    );
    const { code, stderr } = await stats(['--env', 'staging']);
    expect(api.requests[0]?.sql).toContain('FROM staging_calls ');
    expect(code).toBe(1);
    expect(stderr).toContain('The Analytics Engine dataset "staging_calls" has no data yet');
  });

  it('says the dataset has no data yet when it holds nothing at all, and prints an empty window as one', async () => {
    const empty = await stats(['--env', 'production', '--json']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(`The Analytics Engine dataset "${DATASET}" has no data yet`);
    api.state.points = [pointOf(record(), now - 48 * 3_600_000)];
    const quiet = await stats(['--env', 'production', '--json', '--since', '1h']);
    expect(quiet.code).toBe(0);
    expect(JSON.parse(quiet.stdout).rows).toEqual([]);
  });

  it('says where it could not reach, and what else the API answered', async () => {
    const unreachable = await stats(
      ['--env', 'production'],
      env({ CLOUDFLARE_API_BASE_URL: 'http://127.0.0.1:1/client/v4' }),
    );
    expect(unreachable).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Cannot reach Cloudflare's SQL API"),
    });
    api.state.failWith = { status: 500, body: 'Internal error\nat somewhere' };
    expect(await stats(['--env', 'production'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("Cloudflare's SQL API answered 500: Internal error."),
    });
  });
});
