// Sync as an agency operates it: environments, a moved origin (--adopt), --status, every account
// reported whatever happens to another, and what it prints while it waits.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServedFunction } from '../../project/manifest.ts';
import { accountApi } from '../../sync/accountApi.ts';
import { dotenvOf } from '../../sync/main.ts';
import { closedPort } from '../platform/helpers.ts';
import { emulatorPerTest, keyOf, ORIGIN, recordsOf, sync, writesIn } from './helpers.ts';

const served: ServedFunction[] = ['alpha_one', 'beta_two'].map((name) => ({
  name,
  description: `Does ${name}. Call it when asked.\n\nParameters:\n- q (required, string): what to look up.`,
  parameters: { q: 'string' },
  path: `/functions/${name}`,
}));

const dir = mkdtempSync(join(tmpdir(), 'sync-operate-'));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
};

const start = emulatorPerTest();

describe('ownership', () => {
  it("owns only urls under FUNCTIONS_BASE_URL/functions/, so --prune leaves another team's url on the same origin", async () => {
    const platform = await start();
    const { api } = accountApi({ baseUrl: platform.url, apiKey: keyOf(platform, 'business') });
    const theirs = { description: 'Their webhook.', parameters: {}, url: `${ORIGIN}/other-team/webhook` };
    await api.create({ name: 'other_team_hook', ...theirs });
    await api.create({ name: 'climbing_out', ...theirs, url: `${ORIGIN}/functions/../other-team/webhook?key=k` });
    const run = await sync(platform, served, ['--prune']);
    expect(run.exitCode).toBe(0);
    expect(recordsOf(platform, 'business').map((r) => r.name)).toEqual([
      'alpha_one',
      'beta_two',
      'climbing_out',
      'other_team_hook',
    ]);
    expect(writesIn(platform).filter((w) => w.method === 'DELETE')).toEqual([]);
    expect(run.stdout).toContain('2 not managed by this project (left alone)');
  });
});

describe('a moved origin', () => {
  const OLD = 'https://agent-functions.old.workers.dev';

  it('reports the old registrations as conflicts with the way forward, then --adopt moves them in place', async () => {
    const platform = await start();
    await sync(platform, served, [], { env: { FUNCTIONS_BASE_URL: OLD } });
    const before = recordsOf(platform, 'business');

    const stuck = await sync(platform, served);
    expect(stuck.exitCode).toBe(1);
    expect(stuck.stdout).toContain(`if that is this project's previous address, run sync with --adopt ${OLD}`);

    const plan = await sync(platform, served, ['--adopt', OLD, '--dry-run']);
    expect(plan.stdout).toContain(`~ update     alpha_one (url) adopted from ${OLD}`);
    expect(plan.stdout).toContain(`url: ${OLD}/functions/alpha_one?key=*** → ${ORIGIN}/functions/alpha_one?key=***`);

    const since = platform.log().length;
    const moved = await sync(platform, served, ['--adopt', OLD]);
    expect(moved.exitCode).toBe(0);
    expect(writesIn(platform, since).map((w) => w.method)).toEqual(['PATCH', 'PATCH']);
    const after = recordsOf(platform, 'business');
    expect(after.map((r) => r.id)).toEqual(before.map((r) => r.id));
    expect(after.every((r) => r.url.startsWith(`${ORIGIN}/functions/`))).toBe(true);
    expect((await sync(platform, served, ['--adopt', OLD])).stdout).toContain('in sync, nothing to do');
  });
});

describe('environments', () => {
  const STAGING = 'https://agent-functions-staging.example.workers.dev';

  it('never touches the other environment registrations, even in one platform account', async () => {
    const platform = await start();
    const production = await sync(platform, served);
    expect(production.exitCode).toBe(0);
    const productionRecords = recordsOf(platform, 'business');
    const since = platform.log().length;
    const staging = await sync(platform, served, ['--env', 'staging', '--prune'], {
      env: { FUNCTIONS_BASE_URL: STAGING },
    });
    expect(staging.stdout).toContain(`Environment staging: functions at ${STAGING}`);
    expect(staging.stdout).toContain('! conflict   alpha_one registered by someone else');
    expect(writesIn(platform, since)).toEqual([]);
    expect(recordsOf(platform, 'business')).toEqual(productionRecords);
  });

  it('reads .env.NAME and platform.accounts.NAME.json for --env NAME', async () => {
    expect(dotenvOf(['--env', 'staging'], '/p')).toBe('/p/.env.staging');
    expect(dotenvOf(['--dry-run'], '/p')).toBe('/p/.env');
    expect(dotenvOf(['--env='], '/p')).toBe('/p/.env');
    const platform = await start();
    const root = mkdtempSync(join(tmpdir(), 'sync-env-'));
    writeFileSync(
      join(root, 'platform.accounts.staging.json'),
      JSON.stringify({ accounts: [{ name: 'staging-agency', apiKeyEnv: 'STAGING_KEY', baseUrl: platform.url }] }),
    );
    const run = await sync(platform, served, ['--env', 'staging', '--dry-run'], {
      env: { STAGING_KEY: keyOf(platform, 'agency') },
      io: { root },
    });
    expect(run.stdout).toContain('Account "staging-agency"');
    const wrong = await sync(platform, served, ['--env', 'Staging;x']);
    expect(wrong.stderr).toContain('--env must name an environment of wrangler.toml such as staging');
  });
});

describe('one account problem never stops another', () => {
  it('syncs the good account and reports an unset key, a 401, a 403 and an unreachable address each', async () => {
    const platform = await start();
    const port = await closedPort();
    const accounts = file('mixed.json', {
      accounts: [
        { name: 'unset', apiKeyEnv: 'UNSET_KEY', baseUrl: platform.url },
        { name: 'revoked', apiKeyEnv: 'REVOKED_KEY', baseUrl: platform.url },
        { name: 'legacy', apiKeyEnv: 'LEGACY_KEY', baseUrl: platform.url },
        { name: 'gone', apiKeyEnv: 'GONE_KEY', baseUrl: `http://127.0.0.1:${port}` },
        { name: 'good', apiKeyEnv: 'GOOD_KEY', baseUrl: platform.url },
      ],
    });
    const started = Date.now();
    const run = await sync(platform, served, ['--accounts', accounts], {
      env: {
        REVOKED_KEY: 'not-a-key',
        LEGACY_KEY: keyOf(platform, 'legacy'),
        GONE_KEY: 'k',
        GOOD_KEY: keyOf(platform, 'agency'),
      },
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(run.exitCode).toBe(1);
    expect(recordsOf(platform, 'agency').map((r) => r.name)).toEqual(['alpha_one', 'beta_two']);
    const summary = run.stdout.slice(run.stdout.indexOf('Summary:')).split('\n');
    expect(summary).toEqual([
      'Summary:',
      '  unset: failed: Missing UNSET_KEY: the platform API key of account "unset".',
      expect.stringMatching(/^ {2}revoked: failed: The platform refused the API key of account "revoked" \(401\)/),
      expect.stringMatching(/^ {2}legacy: failed: The platform answered 403 for account "legacy"/),
      expect.stringMatching(
        new RegExp(
          `^ {2}gone: failed: GET /v1/custom-functions: could not reach http://127.0.0.1:${port} \\(ECONNREFUSED\\) after 4 attempt`,
        ),
      ),
      '  good: synced: 2 created, 0 updated, 0 deleted (2 writes, 1 round)',
      '',
    ]);
    expect(run.stderr).toContain('Missing UNSET_KEY');
  });

  it('prints what it waits for while retrying: the request, the attempt and how long', async () => {
    const platform = await start({ faults: { serverErrors: { first: 2, status: 503, methods: ['GET'] } } });
    const run = await sync(platform, served);
    expect(run.exitCode).toBe(0);
    const waits = run.stderr.split('\n').filter((line) => line.startsWith('[default] GET'));
    expect(waits).toEqual([
      expect.stringMatching(/^\[default\] GET \/v1\/custom-functions answered 503; attempt 2 of 4 in \d+\.\d s$/),
      expect.stringMatching(/^\[default\] GET \/v1\/custom-functions answered 503; attempt 3 of 4 in \d+\.\d s$/),
    ]);
  });
});

describe('an unreachable address', () => {
  it('fails fast with the real client defaults, printing each attempt while it waits', async () => {
    const platform = await start();
    const port = await closedPort();
    const started = Date.now();
    const run = await sync(platform, served, [], {
      env: { PLATFORM_BASE_URL: `http://127.0.0.1:${port}` },
      io: { createApi: undefined },
    });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(run.exitCode).toBe(1);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('[default]'))).toEqual(
      [2, 3, 4].map((attempt) =>
        expect.stringMatching(
          new RegExp(
            `^\\[default\\] GET /v1/custom-functions no answer \\(ECONNREFUSED\\); attempt ${attempt} of 4 in \\d+\\.\\d s$`,
          ),
        ),
      ),
    );
    expect(run.stdout).toContain(`could not reach http://127.0.0.1:${port} (ECONNREFUSED) after 4 attempt(s)`);
  });
});

describe('npm run sync -- --status', () => {
  it('shows what each account has registered and whether it matches, writing nothing', async () => {
    const platform = await start();
    await sync(platform, [served[0] as ServedFunction]);
    const { api } = accountApi({ baseUrl: platform.url, apiKey: keyOf(platform, 'business') });
    const [record] = recordsOf(platform, 'business');
    await api.update(record?.id as string, { description: 'Changed by hand on the dashboard.' });
    const since = platform.log().length;
    const run = await sync(platform, served, ['--status']);
    expect(writesIn(platform, since)).toEqual([]);
    expect(run.stdout).toContain('≠ differs  alpha_one                    description differ');
    expect(run.stdout).toContain('✗ missing  beta_two                     not registered');
    expect(run.stdout).toContain('0 of 2 functions match.');
    await sync(platform, served);
    const fine = await sync(platform, served, ['--status']);
    expect(fine.stdout).toContain('✓ matches  alpha_one');
    expect(fine.stdout).toContain('2 of 2 functions match.');
    expect(fine.exitCode).toBe(0);
  });
});
