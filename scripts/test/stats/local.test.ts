// npm run stats without --env: the figures of the records dev keeps, per account and function, as
// its console serves them and the command prints them (table, JSON of the contract, CSV), and the
// reasons it gives when it cannot read them.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningConsole, startConsole } from '../../dev/console/server.ts';
import { createRecordStore, recordOf } from '../../dev/records.ts';
import { createWorkerLog } from '../../dev/workerLog.ts';
import { writeDevState } from '../../project/devState.ts';
import { aggregate } from '../../stats/aggregate.ts';
import { runStats } from '../../stats/main.ts';
import { capture } from '../capture.ts';
import { record, twoClients } from './records.ts';

const HOUR = 3_600_000;
const now = Date.parse('2026-11-27T12:00:00Z');
const day = { since: now - 24 * HOUR, until: now, by: 'function' as const };

describe('the figures of records', () => {
  it('counts calls, outcomes, codes, percentiles, deferred work and approvals per account and function', () => {
    const rows = aggregate(twoClients(now - HOUR), day);
    expect(rows.map((row) => [row.account, row.function])).toEqual([
      ['bistro', 'find_parcel'],
      ['client-acme', 'book_table'],
      ['client-acme', 'find_parcel'],
    ]);
    expect(rows[2]).toEqual({
      account: 'client-acme',
      function: 'find_parcel',
      calls: 10,
      ok: 1,
      refused: 2,
      errors: 7,
      codes: { upstream_failed: 6, invalid_arguments: 2, timeout: 1 },
      p50Ms: 40,
      p95Ms: 1000,
      p99Ms: 1000,
      timeouts: 1,
      repeats: 0,
      deferred: 0,
      deferredFailed: 0,
      followUpsSent: 0,
      followUpsFailed: 0,
      approvalsAsked: 0,
      approved: 0,
      denied: 0,
      expired: 0,
    });
    // Deferred work and approved runs belong to the call that started them: a call is counted once.
    expect(rows[1]).toMatchObject({
      calls: 6,
      ok: 6,
      errors: 0,
      codes: {},
      p50Ms: 4,
      p95Ms: 8,
      timeouts: 1,
      repeats: 1,
      deferred: 2,
      deferredFailed: 1,
      followUpsSent: 2,
      followUpsFailed: 1,
      approvalsAsked: 3,
      approved: 1,
      denied: 1,
      expired: 1,
    });
    expect(rows[0]).toMatchObject({ calls: 3, ok: 3, p50Ms: 9, p95Ms: 11, p99Ms: 11 });
  });

  it('keeps to the window and the filters, and groups by account or by version', () => {
    const records = [...twoClients(now - HOUR), record({}, now - 25 * HOUR), record({}, now)];
    expect(
      aggregate(records, day).find((row) => row.function === 'find_parcel' && row.account === 'client-acme')?.calls,
    ).toBe(10);
    const acme = aggregate(records, { ...day, accounts: ['client-acme'], functions: ['book_table'] });
    expect(acme.map((row) => row.function)).toEqual(['book_table']);
    const byAccount = aggregate(records, { ...day, by: 'account' });
    expect(byAccount.map((row) => [row.account, row.calls, 'function' in row])).toEqual([
      ['bistro', 3, false],
      ['client-acme', 16, false],
    ]);
    const byVersion = aggregate(records, { ...day, by: 'version', accounts: ['bistro'] });
    expect(byVersion.map((row) => [row.version, row.calls])).toEqual([
      ['v1a2b3', 2],
      ['v9f8e7', 1],
    ]);
  });

  it('names the latest failing and the slowest calls of a row when asked for samples', () => {
    const records = twoClients(now - HOUR);
    const [row] = aggregate(records, { ...day, accounts: ['client-acme'], functions: ['find_parcel'] }, { samples: 2 });
    const byId = (id: string) => records.find((r) => r.requestId === id);
    expect(row?.samples?.failing.map((s) => byId(s.requestId)?.durationMs)).toEqual([80, 70]);
    expect(row?.samples?.slowest.map((s) => s.durationMs)).toEqual([1000, 80]);
  });
});

describe("dev's record ring", () => {
  it('reads the record of each invocation line, earlier Workers’ lines included, and keeps the newest', () => {
    const store = createRecordStore(3);
    const log = createWorkerLog(500, (fields, at) => {
      const read = recordOf(fields);
      if (read) store.add(read, at);
    });
    const line = (fields: Record<string, unknown>) =>
      `${JSON.stringify({ level: 'info', event: 'invocation', ...fields })}\n`;
    log.feed(line({ function: 'a', requestId: 'r1', status: 200, outcome: 'ok', durationMs: 1 }));
    log.feed('[wrangler:info] POST /functions/a 200 OK\n');
    log.feed(
      line({
        account: 'bistro',
        function: 'b',
        transport: 'mcp',
        kind: 'deferred',
        requestId: 'r2',
        status: 504,
        outcome: 'error',
        code: 'timeout',
        durationMs: 30_000,
        version: 'v1',
        followUp: 'failed',
      }),
    );
    log.feed(
      line({
        function: null,
        requestId: 'r3',
        status: 401,
        outcome: 'refused',
        code: 'unauthorized',
        durationMs: 0,
        repeated: true,
      }),
    );
    log.feed(line({ function: 'd', requestId: 'r4', status: 200, outcome: 'ok', durationMs: 2, deferred: true }));
    log.feed(line({ function: 'e', status: 200 }));
    const kept = [...store.records()].map(({ at: _at, ...rest }) => rest);
    expect(kept).toEqual([
      {
        account: 'bistro',
        function: 'b',
        transport: 'mcp',
        kind: 'deferred',
        requestId: 'r2',
        status: 504,
        outcome: 'error',
        code: 'timeout',
        durationMs: 30_000,
        version: 'v1',
        followUp: 'failed',
      },
      {
        account: null,
        function: null,
        transport: 'http',
        kind: 'call',
        requestId: 'r3',
        status: 401,
        outcome: 'refused',
        code: 'unauthorized',
        durationMs: 0,
        repeated: true,
      },
      {
        account: null,
        function: 'd',
        transport: 'http',
        kind: 'call',
        requestId: 'r4',
        status: 200,
        outcome: 'ok',
        durationMs: 2,
        deferred: true,
      },
    ]);
    expect(store.size()).toBe(3);
  });
});

describe('npm run stats, reading the running npm run dev', () => {
  let root: string;
  let running: RunningConsole;
  const store = createRecordStore();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'stats-local-'));
    for (const r of twoClients(Date.now() - 60_000)) store.add(r, r.at);
    running = await startConsole({
      port: 0,
      functions: async () => [],
      urlOf: async () => undefined,
      records: store.records,
    });
    writeDevState(root, { platformUrl: 'http://127.0.0.1:1', consoleUrl: running.url });
  });
  afterAll(async () => {
    await running.close();
    rmSync(root, { recursive: true, force: true });
  });

  const stats = async (...argv: string[]) => {
    const out = capture();
    const err = capture();
    const code = await runStats(argv, { stdout: out.stream, stderr: err.stream, env: {}, root });
    return { code, stdout: out.text(), stderr: err.text() };
  };

  it('prints the JSON of the contract: since, until and one row per account and function with calls', async () => {
    const { code, stdout } = await stats('--json', '--since', '1h');
    expect(code).toBe(0);
    const answer = JSON.parse(stdout) as { since: string; until: string; rows: Array<Record<string, unknown>> };
    expect(Date.parse(answer.until) - Date.parse(answer.since)).toBe(HOUR);
    expect(answer.rows.map((row) => Object.keys(row).slice(0, 10))).toEqual(
      Array(3).fill(['account', 'function', 'calls', 'ok', 'refused', 'errors', 'codes', 'p50Ms', 'p95Ms', 'p99Ms']),
    );
    expect(answer.rows[2]).toMatchObject({
      account: 'client-acme',
      function: 'find_parcel',
      calls: 10,
      errors: 7,
    });
  });

  it('prints a table naming the top codes, without colours off a terminal, and filters', async () => {
    const { code, stdout } = await stats('--account', 'client-acme', '--function', 'find_parcel');
    expect(code).toBe(0);
    expect(stdout).not.toContain('\u001b[');
    const [head, titles, line] = stdout.split('\n');
    expect(head).toMatch(/^Calls from .* to .*, the running npm run dev:$/);
    expect(titles).toMatch(
      /^account\s+function\s+calls\s+ok\s+refused\s+errors\s+top codes\s+p50\s+p95\s+p99\s+timeouts$/,
    );
    expect(line).toMatch(
      /^client-acme\s+find_parcel\s+10\s+1\s+2\s+7\s+upstream_failed 6, invalid_arguments 2, timeout 1\s+40 ms\s+1000 ms\s+1000 ms\s+1$/,
    );
  });

  it("prints an invoice's usage table as CSV, one row per account", async () => {
    const { code, stdout } = await stats('--by', 'account', '--since', '2026-11-01', '--until', '2099-12-01', '--csv');
    expect(code).toBe(0);
    const [header, ...lines] = stdout.trim().split('\n');
    expect(header).toBe(
      'since,until,account,calls,ok,refused,errors,codes,p50Ms,p95Ms,p99Ms,timeouts,repeats,deferred,deferredFailed,followUpsSent,followUpsFailed,approvalsAsked,approved,denied,expired',
    );
    expect(lines).toEqual([
      '2026-11-01T00:00:00.000Z,2099-12-01T00:00:00.000Z,bistro,3,3,0,0,,9,11,11,0,0,0,0,0,0,0,0,0,0',
      '2026-11-01T00:00:00.000Z,2099-12-01T00:00:00.000Z,client-acme,16,7,2,7,upstream_failed:6 invalid_arguments:2 timeout:1,10,1000,1000,2,1,2,1,2,1,3,1,1,1',
    ]);
  });

  it("serves the health view's rows with their failing and slowest calls, and refuses a bad parameter", async () => {
    const ask = (search: string) => fetch(new URL(`/api/stats?${search}`, running.url));
    const answer = await ask('since=1h&samples=2&account=client-acme&function=find_parcel');
    expect(answer.status).toBe(200);
    const { rows } = (await answer.json()) as { rows: Array<{ samples: { failing: unknown[]; slowest: unknown[] } }> };
    expect(rows).toHaveLength(1);
    expect(rows[0]?.samples.failing).toHaveLength(2);
    expect(rows[0]?.samples.slowest).toEqual([
      expect.objectContaining({ durationMs: 1000 }),
      expect.objectContaining({ durationMs: 80 }),
    ]);
    const bad = await ask('since=soon');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('since takes 1h, 24h, 7d');
  });

  it('refuses malformed flags with a pointer to --help', async () => {
    expect(await stats('--since', 'yesterday')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--since takes 1h, 24h, 7d'),
    });
    expect(await stats('--by', 'day')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--by takes account, function, version'),
    });
    expect(await stats('--account', "x' OR 1=1")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--account takes names'),
    });
  });

  it('says npm run dev is not running when no dev is recorded, or its console does not answer', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'stats-none-'));
    const run = async () => {
      const err = capture();
      const code = await runStats([], { stdout: capture().stream, stderr: err.stream, env: {}, root: empty });
      return { code, stderr: err.text() };
    };
    expect(await run()).toEqual({
      code: 1,
      stderr: expect.stringContaining('npm run dev is not running in this project'),
    });
    writeDevState(empty, { platformUrl: 'http://127.0.0.1:1', consoleUrl: 'http://127.0.0.1:1/' });
    expect(await run()).toEqual({ code: 1, stderr: expect.stringContaining('does not answer') });
    rmSync(empty, { recursive: true, force: true });
  });
});
