// Sync at agency scale: accounts run side by side, bounded (--account-concurrency), so one
// account's outage, refused key or missing plan neither stops nor delays the others; each is
// reported on its own, in --json too, and faults under concurrency still create each function once.
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../platform/emulator.ts';
import type { AccountsConfig } from '../../project/accounts.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { accountApi } from '../../sync/accountApi.ts';
import { capture, platform, sync } from './helpers.ts';

const served: ServedFunction[] = ['alpha_one', 'beta_two', 'gamma_three'].map((name) => ({
  name,
  description: `Does ${name}. Call it when asked.\n\nParameters:\n- q (required, string): what to look up.`,
  parameters: { q: 'string' },
  path: `/functions/${name}`,
}));

const CLIENTS = 8;
/**
 * How slowly the account in an outage answers: the eleven healthy accounts, on the three other
 * slots, are done in about 150 ms (225 ms with the machine busy), well within it.
 */
const OUTAGE_MS = 1000;
const clientName = (i: number) => `client-${i}`;

/** A local platform holding the agency and CLIENTS client accounts, each with its own key. */
const agencyPlatform = (options: Parameters<typeof platform>[0] = {}) =>
  platform({
    accounts: [
      { plan: 'agency_unlimited', apiKey: 'key-agency' },
      ...Array.from({ length: CLIENTS }, (_, i) => ({ plan: 'business' as const, apiKey: `key-${clientName(i)}` })),
      { plan: 'legacy', apiKey: 'key-legacy' },
    ],
    ...options,
  });

const names = (emulator: RunningEmulator, apiKey: string) => {
  const account = emulator.state.accounts.find((a) => a.apiKey === apiKey);
  return [...(account?.functions.values() ?? [])].map((fn) => fn.name).sort();
};

describe('many accounts', () => {
  it('are synced side by side: an account whose platform answers 503 slowly delays no other, and each failure is reported on its own', async () => {
    const main = await agencyPlatform();
    // A white-label address in an outage: every answer is a 503, after OUTAGE_MS.
    const down = await platform({
      accounts: [{ plan: 'business', apiKey: 'key-down' }],
      faults: { slowMs: OUTAGE_MS, serverErrors: { everyNth: 1, status: 503 } },
    });
    try {
      const config: AccountsConfig = {
        accounts: [
          { name: 'agency', apiKeyEnv: 'KEY_AGENCY', baseUrl: main.url },
          { name: 'client-down', apiKeyEnv: 'KEY_DOWN', baseUrl: down.url },
          { name: 'client-revoked', apiKeyEnv: 'KEY_REVOKED', baseUrl: main.url },
          { name: 'client-legacy', apiKeyEnv: 'KEY_LEGACY', baseUrl: main.url },
          ...Array.from({ length: CLIENTS }, (_, i) => ({
            name: clientName(i),
            apiKeyEnv: `KEY_${i}`,
            baseUrl: main.url,
          })),
        ],
      };
      const env: Record<string, string> = {
        KEY_AGENCY: 'key-agency',
        KEY_DOWN: 'key-down',
        KEY_REVOKED: 'a-revoked-key',
        KEY_LEGACY: 'key-legacy',
      };
      for (let i = 0; i < CLIENTS; i++) env[`KEY_${i}`] = `key-${clientName(i)}`;

      const started = performance.now();
      const lastAnswer = new Map<string, number>();
      const run = await sync(main, served, ['--json', '--account-concurrency', '4'], {
        env,
        io: {
          config,
          maxRounds: 1,
          createApi: (account, options) =>
            accountApi({
              ...account,
              ...options,
              retry: { retries: 0 },
              fetch: async (input, init) => {
                const answer = await fetch(input, init);
                lastAnswer.set(account.name, performance.now() - started);
                return answer;
              },
            }),
        },
      });
      // Some failed: 401, 403 and 503 together are exit 1 (3 or 4 only when every failure is that one).
      expect(run.exitCode).toBe(1);
      const document = JSON.parse(run.stdout);
      const byName = Object.fromEntries(
        document.accounts.map((a: { account: string; status: string; error: { kind: string } | null }) => [
          a.account,
          [a.status, a.error?.kind ?? null],
        ]),
      );
      expect(byName).toEqual({
        agency: ['synced', null],
        'client-down': ['failed', 'error'],
        'client-revoked': ['failed', 'unauthorized'],
        'client-legacy': ['failed', 'forbidden'],
        ...Object.fromEntries(Array.from({ length: CLIENTS }, (_, i) => [clientName(i), ['synced', null]])),
      });
      // In the file's order, each with its requests and time.
      expect(document.accounts.map((a: { account: string }) => a.account)).toEqual(config.accounts.map((a) => a.name));
      expect(document.accounts[0]).toMatchObject({ requests: { reads: 1, writes: 3 }, durationMs: expect.any(Number) });
      for (let i = 0; i < CLIENTS; i++) expect(names(main, `key-${clientName(i)}`)).toEqual(served.map((f) => f.name));

      // The healthy accounts were all done before the account in an outage had its first answer.
      const healthy = Math.max(
        ...['agency', ...Array.from({ length: CLIENTS }, (_, i) => clientName(i))].map((n) => lastAnswer.get(n) ?? 0),
      );
      expect(healthy).toBeLessThan(OUTAGE_MS);
      expect(lastAnswer.get('client-down')).toBeGreaterThanOrEqual(OUTAGE_MS);
    } finally {
      await main.close();
      await down.close();
    }
  });

  it('get each function created exactly once when answers are lost, 5xx and 429 hit accounts running side by side', async () => {
    const main = await agencyPlatform({
      faults: {
        loseCreateAnswer: { count: 6, mode: 'drop' },
        rateLimitStorm: { everyNth: 7, retryAfter: '0' },
        serverErrors: { everyNth: 11, status: 503 },
      },
    });
    try {
      const config: AccountsConfig = {
        accounts: Array.from({ length: CLIENTS }, (_, i) => ({ name: clientName(i), apiKeyEnv: `KEY_${i}` })),
      };
      const env: Record<string, string> = {};
      for (let i = 0; i < CLIENTS; i++) env[`KEY_${i}`] = `key-${clientName(i)}`;
      const run = await sync(main, served, ['--account-concurrency', '8'], { env, io: { config } });
      expect(run.exitCode, run.stdout).toBe(0);
      for (let i = 0; i < CLIENTS; i++) expect(names(main, `key-${clientName(i)}`)).toEqual(served.map((f) => f.name));
    } finally {
      await main.close();
    }
  });

  it('show one progress line on a terminal, and a line per tenth of the accounts in a CI log', async () => {
    const main = await agencyPlatform();
    try {
      const config: AccountsConfig = {
        accounts: Array.from({ length: CLIENTS }, (_, i) => ({ name: clientName(i), apiKeyEnv: `KEY_${i}` })),
      };
      const env: Record<string, string> = {};
      for (let i = 0; i < CLIENTS; i++) env[`KEY_${i}`] = `key-${clientName(i)}`;
      const terminal = capture();
      Object.assign(terminal.stream, { isTTY: true });
      await sync(main, served, [], { env, io: { config, stderr: terminal.stream } });
      expect(terminal.text()).toContain(`\r\x1b[2K  accounts: ${CLIENTS}/${CLIENTS} done, 0 in progress; `);
      expect(terminal.text().endsWith('\r\x1b[2K')).toBe(true);

      // Twenty accounts or more in a log: ten heartbeat lines, nothing rewritten in place.
      const twenty = await platform({
        accounts: Array.from({ length: 20 }, (_, i) => ({ plan: 'business' as const, apiKey: `key-c-${i}` })),
      });
      const many: AccountsConfig = {
        accounts: Array.from({ length: 20 }, (_, i) => ({ name: `c-${i}`, apiKeyEnv: `KEY_C_${i}` })),
      };
      const keys = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`KEY_C_${i}`, `key-c-${i}`]));
      const log = await sync(twenty, served, ['--dry-run'], { env: keys, io: { config: many } });
      await twenty.close();
      expect(log.stderr).not.toContain('\r');
      expect(log.stderr.match(/^ {2}accounts: \d+\/20 done/gm)).toHaveLength(10);
      expect(log.stderr).toContain('  accounts: 20/20 done, 0 in progress; 0 writes\n');
    } finally {
      await main.close();
    }
  });

  it('refuses a bad --account-concurrency', async () => {
    const main = await agencyPlatform();
    try {
      const run = await sync(main, served, ['--account-concurrency', '0']);
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('--account-concurrency must be a whole number from 1 to 64.');
    } finally {
      await main.close();
    }
  });
});
