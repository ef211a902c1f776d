// One run, several accounts (an agency and its clients), declared in an accounts file.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../platform/emulator.ts';
import {
  ConfigError,
  DEFAULT_CONFIG,
  loadAccountsConfig,
  parseAccountsConfig,
  resolveSync,
} from '../../project/accounts.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { keyOf, platform, recordsOf, sync } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'sync-accounts-'));
const file = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
};

const served: ServedFunction[] = ['alpha_one', 'beta_two', 'gamma_three'].map((name) => ({
  name,
  description: `Does ${name}. Call it when asked.\n\nParameters:\n- q (required, string): what to look up.`,
  parameters: { q: 'string' },
  path: `/functions/${name}`,
}));

describe('the accounts file', () => {
  it('is checked, and each problem names its field', () => {
    expect(() =>
      parseAccountsConfig(
        {
          accounts: [
            { name: 'a', apiKeyEnv: 'lower-case', baseUrl: 'ftp://x' },
            { name: 'a', apiKeyEnv: 'K' },
          ],
        },
        'x.json',
      ),
    ).toThrow(
      /x\.json is not a valid accounts file:\n {2}- account "a": apiKeyEnv: must be an environment variable name/,
    );
    expect(() =>
      parseAccountsConfig({ accounts: [{ name: 'a', apiKeyEnv: 'K', apiKey: 'secret' }] }, 'x.json'),
    ).toThrow('x.json: account "a": unknown key "apiKey"');
    expect(() => loadAccountsConfig(file('broken.json', '{ "accounts": ['))).toThrow(ConfigError);
  });

  it('is the one default account when absent, and the committed file says the same', () => {
    expect(loadAccountsConfig(join(dir, 'none.json'))).toEqual(DEFAULT_CONFIG);
    expect(loadAccountsConfig(join(import.meta.dirname, '../../../platform.accounts.json'))).toEqual(DEFAULT_CONFIG);
    expect(() => loadAccountsConfig(join(dir, 'none.json'), true)).toThrow(/no such accounts file/);
  });

  it('reports a missing key variable once, naming the account', async () => {
    const config = parseAccountsConfig(
      { accounts: [{ name: 'acme', apiKeyEnv: 'ACME_KEY', baseUrl: 'https://acme.example' }] },
      'x',
    );
    const { problems } = await resolveSync(config, {
      FUNCTIONS_BASE_URL: 'https://f.dev',
      FUNCTIONS_SECRET: 'a-long-enough-random-string-0123',
    });
    expect(problems).toEqual(['Missing ACME_KEY: the platform API key of account "acme".']);
  });

  it('gives each account its events path from its place in the whole file, even when --account selects one', async () => {
    const config = parseAccountsConfig(
      {
        accounts: [
          { name: 'agency', apiKeyEnv: 'AGENCY_KEY', baseUrl: 'https://a.example' },
          { name: 'client-acme', apiKeyEnv: 'ACME_KEY', baseUrl: 'https://acme.example' },
        ],
      },
      'x',
    );
    const env = { FUNCTIONS_BASE_URL: 'https://f.dev', FUNCTIONS_SECRET: 'a-long-enough-random-string-0123' };
    expect((await resolveSync(config, env)).accounts.map((a) => a.eventsPath)).toEqual([
      '/events',
      '/events/client-acme',
    ]);
    expect((await resolveSync(config, env, ['client-acme'])).accounts.map((a) => a.eventsPath)).toEqual([
      '/events/client-acme',
    ]);
  });
});

describe('a multi-account run', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await platform();
  });
  afterAll(() => emulator.close());

  it('syncs every account, with its own subset, and one failing account does not stop the others', async () => {
    const accounts = file('agency.json', {
      accounts: [
        { name: 'agency', apiKeyEnv: 'AGENCY_KEY' },
        { name: 'old-client', apiKeyEnv: 'OLD_CLIENT_KEY', baseUrlEnv: 'OLD_CLIENT_URL' },
        { name: 'client-acme', apiKeyEnv: 'ACME_KEY', baseUrl: emulator.url, functions: ['beta_two'] },
      ],
    });
    const env = {
      AGENCY_KEY: keyOf(emulator, 'agency'),
      OLD_CLIENT_KEY: keyOf(emulator, 'legacy'),
      OLD_CLIENT_URL: emulator.url,
      ACME_KEY: keyOf(emulator, 'agency_unlimited'),
      PLATFORM_API_KEY: undefined,
    };
    const run = await sync(emulator, served, ['--accounts', accounts], { env });
    expect(run.exitCode).toBe(4);
    expect(recordsOf(emulator, 'agency').map((r) => r.name)).toEqual(['alpha_one', 'beta_two', 'gamma_three']);
    expect(recordsOf(emulator, 'agency_unlimited').map((r) => r.name)).toEqual(['beta_two']);
    const summary = run.stdout.slice(run.stdout.indexOf('Summary:'));
    expect(summary).toContain('agency: synced: 3 created');
    expect(summary).toContain('old-client: failed: The platform answered 403 for account "old-client"');
    expect(summary).toContain('client-acme: synced: 1 created');

    const only = await sync(emulator, served, ['--accounts', accounts, '--account', 'agency,client-acme', '--json'], {
      env,
    });
    expect(only.exitCode).toBe(0);
    expect(
      JSON.parse(only.stdout).accounts.map((a: { account: string; status: string }) => [a.account, a.status]),
    ).toEqual([
      ['agency', 'in-sync'],
      ['client-acme', 'in-sync'],
    ]);
  });

  it('fails an account whose subset names an unknown function, and still syncs the rest', async () => {
    const accounts = file('typo.json', {
      accounts: [
        { name: 'typo', apiKeyEnv: 'BUSINESS_KEY', functions: ['alpah_one'] },
        { name: 'agency', apiKeyEnv: 'AGENCY_KEY' },
      ],
    });
    const env = { BUSINESS_KEY: keyOf(emulator, 'business'), AGENCY_KEY: keyOf(emulator, 'agency') };
    const run = await sync(emulator, served, ['--accounts', accounts], { env });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('typo: failed: its "functions" list names functions not in functions/: alpah_one');
    // Second in this file, unlike in the file before: its urls now name it (docs/platform-contract.md §10).
    expect(run.stdout).toContain('agency: synced: 0 created, 3 updated');
  });
});
