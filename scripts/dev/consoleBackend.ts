// What the console of `npm run dev` asks of dev: every function as the Worker serves it and as the
// accounts hold it (keys masked, with the description linter's findings), the url an account's
// agent calls, and the customer the console's agent speaks for in each account.
import { createPlatformClient } from 'agent-functions/platform';
import { functionUrl } from 'agent-functions/worker';
import { findingsOf, lintFunctions } from '../lint/index.ts';
import { loadPrompts, toLintFunction } from '../lint/load.ts';
import type { DevAccount } from '../local/accounts.ts';
import { type ConsoleAccount, type ConsoleListing, type ConsoleOptions, maskKey } from './console/types.ts';
import type { ManifestRead } from './workerManifest.ts';

export interface ConsoleBackendOptions {
  /** The local platform's accounts, the first first. */
  accounts: DevAccount[];
  /** The local Worker's origin and the secret its keys come from. */
  origin: string;
  secret: string;
  root: string;
  /** Reads the Worker's manifest now (undefined while it is (re)starting). */
  manifest: () => Promise<ManifestRead | undefined>;
  /** The manifest read last (the sync loop's): the listing's fallback, and what the urls are made of. */
  current: () => ManifestRead | undefined;
}

/** What startConsole takes from dev, besides its port and the Worker's log. */
export interface ConsoleBackend extends Required<Pick<ConsoleOptions, 'urlOf' | 'conversation' | 'accounts'>> {
  /** Every function the Worker serves, and its manifest's problem. */
  functions: () => Promise<ConsoleListing>;
  /** Makes `accounts` (the console holds that array) the dev accounts' again, after platform.accounts.json changed. */
  refreshAccounts(): void;
}

type Customer = { contactId: string; conversationId: string; channel: string };

/**
 * The console's side of dev, read afresh on each request.
 * @example await startConsole({ port: 8789, ...createConsoleBackend({ accounts, origin, secret, root, manifest, current }) })
 */
export const createConsoleBackend = (options: ConsoleBackendOptions): ConsoleBackend => {
  const { accounts, origin, secret, root, manifest, current } = options;
  const clientOf = (account: DevAccount) => createPlatformClient({ baseUrl: account.baseUrl, apiKey: account.apiKey });
  const accountNamed = (name?: string) => accounts.find((a) => a.name === name) ?? accounts[0];

  const functions = async (): Promise<ConsoleListing> => {
    const read = (await manifest()) ?? current();
    const full = read && 'full' in read ? read.full : [];
    // What the first account (the Agency one) holds is what the listing shows as registered.
    const first = accounts[0];
    const registered = first
      ? await clientOf(first)
          .customFunctions.list()
          .catch(() => [])
      : [];
    const held = await Promise.all(
      accounts.map(async (account) => ({
        name: account.name,
        names: (
          await clientOf(account)
            .customFunctions.list()
            .catch(() => [])
        ).map((fn) => fn.name),
      })),
    );
    // A broken definition fails the whole manifest: the console says so rather than "No functions".
    const problem = read && 'error' in read ? { problem: read.error } : {};
    const served = read && 'served' in read ? read.served : [];
    const report = lintFunctions(served.map(toLintFunction), await loadPrompts(root).catch(() => undefined));
    const listed = full.map((fn) => {
      const remote = registered.find((r) => r.name === fn.name);
      return {
        name: fn.name,
        registered: remote
          ? { description: remote.description, parameters: remote.parameters, url: maskKey(remote.url) }
          : null,
        registeredOn: held.filter((account) => account.names.includes(fn.name)).map((account) => account.name),
        jsonSchema: fn.jsonSchema ?? {},
        findings: findingsOf(report, fn.name).map(({ severity, rule, parameter, message, fix }) => ({
          severity,
          rule,
          parameter,
          message,
          fix,
        })),
      };
    });
    return { functions: listed, ...problem };
  };

  // The url the account's agent calls: the first account's has no ?account= (docs/platform-contract.md §10).
  const urlOf = async (name: string, accountName?: string) => {
    const read = current();
    const fn = (read && 'served' in read ? read.served : []).find((f) => f.name === name);
    const account = accountNamed(accountName);
    return fn ? functionUrl(origin, fn, secret, account?.first === false ? account.name : undefined) : undefined;
  };

  // The console's agent talks to one customer of each account, as the platform would say (§9); a
  // failed creation is forgotten, so the next call tries again.
  const customers = new Map<string, Promise<Customer>>();
  const conversation = (accountName?: string): Promise<Customer | undefined> => {
    const account = accountNamed(accountName);
    if (!account) return Promise.resolve(undefined);
    const made =
      customers.get(account.name) ??
      clientOf(account)
        .contacts.create({ name: 'Console customer', phone: '+15555550199', channel: 'whatsapp' })
        .then((contact) => ({ contactId: contact.id, conversationId: `cv_${contact.id}`, channel: 'whatsapp' }));
    customers.set(account.name, made);
    return made.catch((error: unknown) => {
      customers.delete(account.name);
      throw error;
    });
  };

  const shown: ConsoleAccount[] = [];
  const refreshAccounts = () => {
    shown.splice(0, shown.length, ...accounts.map(({ name, baseUrl, apiKey }) => ({ name, url: baseUrl, apiKey })));
  };
  refreshAccounts();
  return { functions, urlOf, conversation, accounts: shown, refreshAccounts };
};
