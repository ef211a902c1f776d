// An agency moves 500 existing clients onto the project in one command: `npm run accounts -- import
// clients.csv` against the project's own Worker (workerd, production mode, its account store) and
// the local platform over HTTP, holding 500 client accounts. Two rows are bad (a refused key,
// settings that are not plain values): they are named by account and the other 500 go on. A second
// run changes nothing, and the file of 500 clients is listed a page at a time.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { manifestKey } from 'agent-functions/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAccounts } from '../scripts/accounts/main.ts';
import { type RunningEmulator, startEmulator } from '../scripts/platform/emulator.ts';
import { parseManifest, type ServedFunction } from '../scripts/project/manifest.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { capture } from '../scripts/test/sync/helpers.ts';

const SECRET = 'import-e2e-functions-secret-7c41d9a2';
const ACCOUNTS_SECRET = 'import-e2e-store-secret-3e90b6f1';
const CLIENTS = 500;
const clientKey = (i: number) => `pk_import_client_${i}_${'x'.repeat(16)}`;

let origin = '';
let served: ServedFunction[] = [];
let emulator: RunningEmulator;
let stopWorker: () => Promise<void> = async () => {};
let root = '';

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    rateLimit: false,
    accounts: [
      { plan: 'agency', apiKey: 'pk_import_agency' },
      ...Array.from({ length: CLIENTS }, (_, i) => ({ plan: 'business' as const, apiKey: clientKey(i) })),
    ],
  });
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
  const { createTestHarness } = await import('wrangler');
  const server = createTestHarness({
    root: PROJECT_ROOT,
    workers: [
      {
        configPath: './wrangler.toml',
        vars: { AGENT_FUNCTIONS_MODE: 'production' },
        secrets: { FUNCTIONS_SECRET: SECRET, ACCOUNTS_SECRET },
      },
    ],
  });
  const { url } = await server.listen();
  stopWorker = () => server.close();
  origin = url.origin;
  const response = await fetch(`${origin}/functions`, {
    headers: { authorization: `Bearer ${await manifestKey(SECRET)}` },
  });
  served = parseManifest(response.status, await response.text());
  root = mkdtempSync(join(tmpdir(), 'accounts-import-'));
  writeFileSync(
    join(root, 'platform.accounts.json'),
    `${JSON.stringify({ accounts: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }] }, null, 2)}\n`,
  );
}, 240_000);
afterAll(async () => {
  await stopWorker();
  await emulator?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Runs `npm run accounts -- ...argv` in-process, as a user's terminal-less shell would. */
const accounts = async (argv: string[]) => {
  const stdout = capture();
  const stderr = capture();
  const code = await runAccounts(argv, {
    env: {
      FUNCTIONS_BASE_URL: origin,
      FUNCTIONS_SECRET: SECRET,
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_API_KEY: 'pk_import_agency',
    },
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdin: Readable.from([]),
    root,
    sync: { readManifest: async () => served, lint: false, eventTypes: [], fetchWorker: false, roundDelayMs: 5 },
  });
  return { code, out: stdout.text(), err: stderr.text() };
};

/** How many functions each client account holds on the platform, by its key. */
const functionsPerClient = () =>
  Array.from({ length: CLIENTS }, (_, i) => {
    const account = emulator.state.accounts.find((a) => a.apiKey === clientKey(i));
    return account ? account.functions.size : -1;
  });

describe('npm run accounts -- import', () => {
  it('onboards 500 clients in one command within 2 minutes, naming the two bad rows, and a second run changes nothing', async () => {
    const csv = join(root, 'clients.csv');
    const rows = Array.from({ length: CLIENTS }, (_, i) => `client-${String(i).padStart(3, '0')},${clientKey(i)},,`);
    // One client comes with its settings: they go to the store with its key, not into the bundle.
    rows[7] = `client-007,${clientKey(7)},,"{""timezone"": ""Europe/Paris""}"`;
    rows.splice(100, 0, 'client-refused,pk_not_a_key_of_this_platform,,');
    rows.splice(300, 0, `client-badsettings,${clientKey(0)},,"{""time zone"": ""Europe/Paris""}"`);
    writeFileSync(csv, `name,key,base url,settings\n${rows.join('\n')}\n`);

    const started = Date.now();
    const first = await accounts(['import', csv]);
    const seconds = (Date.now() - started) / 1000;
    expect(first.code).toBe(1);
    expect(first.out).toMatch(/client-refused \(line 102\): bad key: the platform at .* refused its key \(401\)/);
    expect(first.out).toMatch(/client-badsettings \(line 302\): invalid settings/);
    expect(first.out).toContain(`Imported ${CLIENTS} of ${CLIENTS + 2} account(s)`);
    expect(first.out).toContain(`Synced ${CLIENTS} of ${CLIENTS} account(s): ${CLIENTS * served.length} write(s)`);
    expect(`${first.out}${first.err}`).not.toMatch(/pk_import_client|pk_not_a_key/);
    expect(seconds).toBeLessThanOrEqual(120);
    // Every function created exactly once on every client account.
    expect(new Set(functionsPerClient())).toEqual(new Set([served.length]));
    const file = JSON.parse(readFileSync(join(root, 'platform.accounts.json'), 'utf8')) as {
      accounts: { name: string }[];
    };
    expect(file.accounts).toHaveLength(CLIENTS + 1);
    expect(file.accounts.slice(1).every((account) => Object.keys(account).join() === 'name')).toBe(true);
    console.log(`import of ${CLIENTS} clients (2 bad rows): ${seconds.toFixed(1)} s`);

    const again = await accounts(['import', csv, '--json']);
    expect(again.code).toBe(1);
    const report = JSON.parse(again.out) as {
      accounts: { name: string; outcome: string; kind?: string }[];
      sync: { accounts: { account: string; requests: { writes: number } | null }[] };
    };
    const outcomes = new Map<string, number>();
    for (const row of report.accounts) outcomes.set(row.outcome, (outcomes.get(row.outcome) ?? 0) + 1);
    expect(Object.fromEntries(outcomes)).toEqual({ unchanged: CLIENTS, failed: 2 });
    // The sync of the second run: every account already right, not one write.
    expect(report.sync.accounts).toHaveLength(CLIENTS);
    expect(report.sync.accounts.reduce((sum, account) => sum + (account.requests?.writes ?? 1), 0)).toBe(0);
    expect(readFileSync(join(root, 'platform.accounts.json'), 'utf8')).toBe(`${JSON.stringify(file, null, 2)}\n`);
  });

  it('lists the 500 clients a page at a time, filtered by the start of their names', async () => {
    const page = await accounts(['list', '--json', '--filter', 'client-4', '--limit', '20']);
    expect(page.code).toBe(0);
    const listed = JSON.parse(page.out) as { accounts: { name: string; stored: boolean }[]; next?: string };
    expect(listed.accounts.map((a) => a.name)).toEqual(Array.from({ length: 20 }, (_, i) => `client-${400 + i}`));
    expect(listed.accounts.every((a) => a.stored)).toBe(true);
    expect(listed.next).toBe('client-419');
    const next = JSON.parse(
      (await accounts(['list', '--json', '--filter', 'client-4', '--after', 'client-419'])).out,
    ) as {
      accounts: { name: string }[];
    };
    expect(next.accounts).toHaveLength(80);
  });
});
