// npm run dev plays every account of platform.accounts.json on its local platform (docs/local-development.md
// "Several accounts"): each under the file's name with a local key of its own, an address of its own
// when the file sets one apart, every function registered on each with that account's url (the
// first's without ?account=, every other's bound to it; docs/platform-contract.md §10), and the
// Worker's variables wired to each. In process, against the real local platform over HTTP.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createPlatformClient } from 'agent-functions/platform';
import { functionKey, functionUrl } from 'agent-functions/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevAccount } from '../../dev/accounts.ts';
import { accountsLine, type LocalPlatform, startLocalPlatform } from '../../dev/platform.ts';
import { accountsDrift, registerOnAccounts } from '../../dev/register.ts';
import { devVars } from '../../dev/vars.ts';
import type { AccountsConfig } from '../../sync/accounts.ts';
import type { ServedFunction } from '../../sync/manifest.ts';

const ORIGIN = 'http://127.0.0.1:8787';
const SECRET = 'a-dev-session-secret-of-32-characters';
const CONFIG: AccountsConfig = {
  accounts: [
    { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
    // A white-label client: its own address, from a variable of its own.
    { name: 'client-acme', apiKeyEnv: 'ACME_API_KEY', baseUrlEnv: 'ACME_BASE_URL' },
    // A client on the agency's address, with only one of the functions.
    { name: 'client-bolt', apiKeyEnv: 'BOLT_API_KEY', functions: ['book_table'] },
  ],
};
const fn = (name: string): ServedFunction => ({
  name,
  path: `/functions/${name}`,
  description: `Does ${name}. Call it when the customer asks for it.`,
  parameters: { city: 'string' },
});
const SERVED = [fn('book_table'), fn('lookup_order')];

const quiet = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });
const register = (served = SERVED) =>
  registerOnAccounts({
    accounts: local.accounts,
    origin: ORIGIN,
    secret: SECRET,
    served,
    stdout: quiet(),
    stderr: quiet(),
    eventTypes: ['message.received'],
    root: mkdtempSync(join(tmpdir(), 'dev-register-')),
  });
const clientOf = (account: DevAccount) => createPlatformClient({ baseUrl: account.baseUrl, apiKey: account.apiKey });
const named = (name: string) => local.accounts.find((account) => account.name === name) as DevAccount;

let local: LocalPlatform;
beforeAll(async () => {
  local = await startLocalPlatform(0, undefined, CONFIG);
});
afterAll(() => local?.emulator.close());

describe("npm run dev's local accounts", () => {
  it('are those of the accounts file, each with its own local key, and an own address where the file sets one apart', () => {
    expect(local.accounts.map(({ name, first, apiKey, baseUrl }) => ({ name, first, apiKey, baseUrl }))).toEqual([
      { name: 'agency', first: true, apiKey: 'local-agency-key', baseUrl: local.emulator.url },
      {
        name: 'client-acme',
        first: false,
        apiKey: 'local-client-acme-account-key',
        baseUrl: `${local.emulator.url}/accounts/client-acme`,
      },
      { name: 'client-bolt', first: false, apiKey: 'local-client-bolt-account-key', baseUrl: local.emulator.url },
    ]);
    // The plans' accounts are still there (npm run platform -- call --account business, ...).
    expect(local.emulator.accounts.map((account) => account.plan)).toEqual([
      'business',
      'agency',
      'agency_unlimited',
      'legacy',
      'business',
      'business',
    ]);
  });

  it('are said at start: the first as the Agency account, as ever, then each other with its key and own address', () => {
    const line = `local platform on ${local.emulator.url} ${accountsLine(local.accounts)}`;
    expect(line).toBe(
      `local platform on ${local.emulator.url} (Agency account key: local-agency-key); also account "client-acme" (key local-client-acme-account-key, at ${local.emulator.url}/accounts/client-acme), account "client-bolt" (key local-client-bolt-account-key)`,
    );
    expect(accountsLine(local.accounts.slice(0, 1))).toBe('(Agency account key: local-agency-key)');
  });

  it("registers every function on each account with that account's url, and its webhook at its events path", async () => {
    const run = await register();
    expect(run.exitCode).toBe(0);
    const held = async (name: string) =>
      (await clientOf(named(name)).customFunctions.list()).map(({ name: fnName, url }) => ({ name: fnName, url }));
    expect(await held('agency')).toEqual([
      { name: 'book_table', url: `${ORIGIN}/functions/book_table?key=${await functionKey(SECRET, 'book_table')}` },
      {
        name: 'lookup_order',
        url: `${ORIGIN}/functions/lookup_order?key=${await functionKey(SECRET, 'lookup_order')}`,
      },
    ]);
    expect(await held('client-acme')).toEqual([
      {
        name: 'book_table',
        url: `${ORIGIN}/functions/book_table?account=client-acme&key=${await functionKey(SECRET, 'book_table', 'client-acme')}`,
      },
      { name: 'lookup_order', url: await functionUrl(ORIGIN, fn('lookup_order'), SECRET, 'client-acme') },
    ]);
    expect(await held('client-bolt')).toEqual([
      { name: 'book_table', url: await functionUrl(ORIGIN, fn('book_table'), SECRET, 'client-bolt') },
    ]);
    const hooks = await Promise.all(
      local.accounts.map(async (account) => (await clientOf(account).webhooks.list()).map((hook) => hook.url)),
    );
    expect(hooks).toEqual([[`${ORIGIN}/events`], [`${ORIGIN}/events/client-acme`], [`${ORIGIN}/events/client-bolt`]]);
  });

  it('finds nothing to do on the next run, and says which account lost a function behind its back', async () => {
    expect(await accountsDrift(local.accounts, SERVED, ORIGIN, SECRET)).toEqual([]);
    const second = await register();
    expect(second.reports.map((report) => [report.account, report.status])).toEqual([
      ['agency', 'in-sync'],
      ['agency (events webhook)', 'in-sync'],
      ['client-acme', 'in-sync'],
      ['client-acme (events webhook)', 'in-sync'],
      ['client-bolt', 'in-sync'],
      ['client-bolt (events webhook)', 'in-sync'],
    ]);
    const acme = clientOf(named('client-acme'));
    const [gone] = await acme.customFunctions.list();
    await acme.customFunctions.delete(gone?.id ?? '');
    expect(await accountsDrift(local.accounts, SERVED, ORIGIN, SECRET)).toEqual([
      '[client-acme] the local platform lacks book_table, which the Worker serves',
    ]);
    await register();
    expect(await accountsDrift(local.accounts, SERVED, ORIGIN, SECRET)).toEqual([]);
  });

  it("wires each account's key and address into the variables its entry names, the first's into the defaults", () => {
    const root = mkdtempSync(join(tmpdir(), 'dev-register-vars-'));
    writeFileSync(join(root, 'platform.accounts.json'), JSON.stringify(CONFIG));
    const { vars, notes, problems } = devVars(root, {
      platformUrl: local.emulator.url,
      platformApiKey: local.agencyKey,
      accounts: local.accounts,
    });
    expect(vars).toMatchObject({
      PLATFORM_API_KEY: 'local-agency-key',
      PLATFORM_BASE_URL: local.emulator.url,
      ACME_API_KEY: 'local-client-acme-account-key',
      ACME_BASE_URL: `${local.emulator.url}/accounts/client-acme`,
      BOLT_API_KEY: 'local-client-bolt-account-key',
    });
    expect({ notes, problems }).toEqual({ notes: [], problems: [] });
  });
});
