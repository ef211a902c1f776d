// Every call knows its account and acts in it (docs/platform-contract.md §10): the url names the
// account, its key is bound to it, and context.account and context.platform are that account's.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { StoredAccount } from '../../accounts/resolve.ts';
import { serveAccounts } from '../../accounts/serve.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { ACCOUNT_QUERY, functionKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { platformFromEnv } from '../../platform/client/fromEnv.ts';
import { withEnv } from '../../testing/call.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { env, errorOf, SECRET } from '../helpers.ts';

const stored: Record<string, StoredAccount> = {
  'client-s': {
    apiKey: 'key-of-s',
    baseUrl: 'https://s.platform.test',
    secrets: { SHOP_API_KEY: 'shop-key-of-s' },
    updatedAt: 0,
  },
};
let storeReads = 0;

const worker = createWorker({
  functions: {
    who_am_i: defineFunction({
      description: 'Says which account the call acts in, for the tests.',
      parameters: z.object({}),
      effect: 'read',
      handler: (_args, { account }) => ({
        account: account.name,
        settings: account.settings,
        storeKey: account.secret('SHOP_API_KEY') ?? null,
      }),
    }),
    ping_team: defineFunction({
      description: 'Messages the team from the call account, for the tests.',
      parameters: z.object({}),
      effect: 'read',
      handler: async (_args, { platform }) => ({
        id: (await platform.messages.send({ contactId: 'team', channel: 'whatsapp', text: 'hi' })).id,
      }),
    }),
  },
  platform: platformFromEnv,
  accounts: serveAccounts({
    list: [
      {
        name: 'agency',
        apiKeyEnv: 'PLATFORM_API_KEY',
        baseUrlEnv: 'PLATFORM_BASE_URL',
        settings: { timezone: 'Europe/London' },
      },
      {
        name: 'client-b',
        apiKeyEnv: 'CLIENT_B_KEY',
        baseUrl: 'https://b.platform.test',
        settings: { handoff: 'c_team_b' },
      },
      { name: 'client-c', apiKeyEnv: 'CLIENT_C_KEY', baseUrl: 'https://c.platform.test' },
    ],
    settings: { timezone: 'Europe/Paris', openingHours: 'default hours' },
    store: async (_env, name) => {
      storeReads++;
      return stored[name];
    },
  }),
});
const environment = { ...env, CLIENT_B_KEY: 'key-of-b', SHOP_API_KEY: 'worker-shop-key' } as Env;
const as = (account?: string) => withEnv(worker, environment, account);

/** A call of `name` through a url naming `account` with the key of `keyAccount`. */
const swapped = async (name: string, account: string, keyAccount: string | undefined) => {
  const key = await functionKey(SECRET, name, keyAccount);
  return as().send(`/functions/${name}?${ACCOUNT_QUERY}=${account}&key=${key}`, { method: 'POST', body: '{}' });
};

let outbound: Outbound;
let logs: Array<Record<string, unknown>>;
let previousSink: ReturnType<typeof setLogSink>;
beforeEach(() => {
  outbound = mockOutbound().on('POST', /\/v1\/messages$/, () => Response.json({ id: 'msg_1' }, { status: 201 }));
  logs = [];
  previousSink = setLogSink((line) => logs.push(JSON.parse(line) as Record<string, unknown>));
});
afterEach(() => {
  outbound.restore();
  setLogSink(previousSink);
});

describe('a call knows its account', () => {
  it("acts in the first account through the first account's plain urls, with the file's settings under its own", async () => {
    const response = await as().call('who_am_i', {});
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      account: 'agency',
      settings: { timezone: 'Europe/London', openingHours: 'default hours' },
      storeKey: 'worker-shop-key',
    });
  });

  it('acts in the account its url names, with that account key, and logs which account', async () => {
    const response = await as('client-b').call('who_am_i', {});
    expect(await response.json()).toMatchObject({
      account: 'client-b',
      settings: { timezone: 'Europe/Paris', handoff: 'c_team_b' },
    });
    expect(logs.find((l) => l.event === 'invocation')).toMatchObject({ account: 'client-b', status: 200 });
  });

  it("refuses a url whose account was swapped for another's, and a plain url with an account's key", async () => {
    const swap = await swapped('who_am_i', 'client-c', 'client-b');
    expect(swap.status).toBe(401);
    const plain = await as().send(`/functions/who_am_i?key=${await functionKey(SECRET, 'who_am_i', 'client-b')}`, {
      method: 'POST',
      body: '{}',
    });
    expect(plain.status).toBe(401);
    // The first account's key under another account's name is no key either.
    expect((await swapped('who_am_i', 'client-b', undefined)).status).toBe(401);
  });

  it('refuses an account the Worker does not know with 401, never the first account', async () => {
    const response = await swapped('who_am_i', 'ghost', 'ghost');
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('unauthorized');
    expect(logs.some((l) => l.event === 'unknown_account')).toBe(true);
  });

  it("serves an account found only in the key store, with its stored secrets before the Worker's", async () => {
    const response = await as('client-s').call('who_am_i', {});
    expect(await response.json()).toEqual({
      account: 'client-s',
      settings: { timezone: 'Europe/Paris', openingHours: 'default hours' },
      storeKey: 'shop-key-of-s',
    });
  });

  it("lends the Worker's variables to the first account only: another account's secret is its own or none", async () => {
    const response = await as('client-b').call('who_am_i', {});
    expect(await response.json()).toMatchObject({ account: 'client-b', storeKey: null });
    expect(await (await as().call('who_am_i', {})).json()).toMatchObject({ storeKey: 'worker-shop-key' });
  });

  it('reads the key store at most once per account a minute', async () => {
    await as('client-s').call('who_am_i', {});
    const before = storeReads;
    for (let i = 0; i < 5; i++) await as('client-s').call('who_am_i', {});
    expect(storeReads).toBe(before);
  });
});

describe('a call acts in its account', () => {
  it("reaches the platform with its own account's address and key", async () => {
    await as('client-b').call('ping_team', {});
    await as().call('ping_team', {});
    await as('client-s').call('ping_team', {});
    const sent = outbound.requests.map((r) => [new URL(r.url).origin, r.headers.get('x-api-key')]);
    expect(sent).toEqual([
      ['https://b.platform.test', 'key-of-b'],
      ['https://platform.test', 'test-platform-key'],
      ['https://s.platform.test', 'key-of-s'],
    ]);
  });

  it('answers 503 for an account whose key is missing, logs which account, and the others keep working', async () => {
    const response = await as('client-c').call('ping_team', {});
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('platform_not_configured');
    expect(logs.find((l) => l.event === 'account_not_configured')).toMatchObject({
      account: 'client-c',
      missing: 'CLIENT_C_KEY',
    });
    expect(JSON.stringify(logs)).not.toContain('key-of-b');
    expect((await as('client-b').call('ping_team', {})).status).toBe(200);
    // A function that never touches the platform still works in that account.
    expect((await as('client-c').call('who_am_i', {})).status).toBe(200);
  });
});

describe('a Worker with no accounts option (one account, "default")', () => {
  const plain = createWorker({
    functions: {
      who: defineFunction({
        description: 'Says which account, for the tests.',
        parameters: z.object({}),
        effect: 'read',
        handler: (_args, { account }) => ({ account: account.name, settings: account.settings }),
      }),
    },
  });

  it('keeps the plain urls working', async () => {
    const response = await withEnv(plain, env as Env).call('who', {});
    expect(await response.json()).toEqual({ account: 'default', settings: {} });
    // "default" named in the url is the same account.
    expect(await (await withEnv(plain, env as Env, 'default').call('who', {})).json()).toEqual({
      account: 'default',
      settings: {},
    });
  });

  it('refuses a url naming another account with 401, never acting as "default", and logs it', async () => {
    const key = await functionKey(SECRET, 'who', 'client-b');
    const response = await withEnv(plain, env as Env).send(`/functions/who?${ACCOUNT_QUERY}=client-b&key=${key}`, {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('unauthorized');
    expect(logs.find((l) => l.event === 'unknown_account')).toMatchObject({ account: 'client-b', function: 'who' });
  });
});
