// A call through a stored-key account's url acts with that account's stored key and address (the
// lead's resolver reads them with readStoredAccount), its secrets reach context.account.secret,
// and an account whose key is gone answers a 503 the model can read while another still works.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { accountStore } from '../../accounts/admin.ts';
import { seal } from '../../accounts/seal.ts';
import { serveAccounts } from '../../accounts/serve.ts';
import { forgetStoredAccount, readStoredAccount, writeStoredAccount } from '../../accounts/store.ts';
import type { AccountStore } from '../../accounts/storeObject.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { accountsKey, functionKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { platformFromEnv } from '../../platform/client/fromEnv.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { SECRET } from '../helpers.ts';

const ORIGIN = 'https://fns.example.dev';
const count_contacts = defineFunction({
  description: 'Counts the contacts of the calling account, and says whether its shop token is set.',
  parameters: z.object({}),
  effect: 'read',
  handler: async (_args, { platform, account }) => ({
    account: account.name,
    contacts: (await platform.contacts.list()).length,
    shopToken: account.secret('SHOP_TOKEN') ?? null,
  }),
});
const worker = createWorker({
  functions: { count_contacts },
  platform: platformFromEnv,
  accounts: serveAccounts({
    list: [
      { name: 'agency', apiKeyEnv: 'AGENCY_KEY', baseUrl: 'https://agency.platform.test' },
      // Listed without apiKeyEnv, never stored: its key is missing.
      { name: 'client-unkeyed', baseUrl: 'https://acme.platform.test' },
    ],
    store: readStoredAccount,
  }),
  accountStore,
});
const testEnv = { ...(env as Env), AGENCY_KEY: 'pk_agency' } as Env;

const fetchWorker = async (request: Request) => {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, testEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};
const store = async (name: string, record: object) =>
  fetchWorker(
    new Request(`${ORIGIN}/accounts/${name}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${await accountsKey(SECRET)}` },
      body: JSON.stringify(record),
    }),
  );
const callAs = async (account?: string) => {
  const key = await functionKey(SECRET, 'count_contacts', account);
  const query = account ? `account=${account}&key=${key}` : `key=${key}`;
  return fetchWorker(new Request(`${ORIGIN}/functions/count_contacts?${query}`, { method: 'POST', body: '{}' }));
};

let outbound: Outbound;
let logged: string[];
let restoreLog: () => void;
beforeEach(() => {
  forgetStoredAccount();
  logged = [];
  const previous = setLogSink((line) => logged.push(line));
  restoreLog = () => setLogSink(previous);
  outbound = mockOutbound()
    .on('GET', 'https://agency.platform.test/v1/contacts', () => Response.json({ data: [{ id: 'a1' }] }))
    .on('GET', 'https://acme.platform.test/v1/contacts', () => Response.json({ data: [{ id: 'c1' }, { id: 'c2' }] }));
});
afterEach(() => {
  outbound.restore();
  restoreLog();
});

describe('a call through a stored-key account', () => {
  it("acts with the account's stored key, address and secrets; the first account with its variable", async () => {
    expect(
      (
        await store('client-acme', {
          apiKey: 'pk_acme_stored',
          baseUrl: 'https://acme.platform.test',
          secrets: { SHOP_TOKEN: 'tok' },
        })
      ).status,
    ).toBe(200);
    const client = await callAs('client-acme');
    expect(await client.json()).toEqual({ account: 'client-acme', contacts: 2, shopToken: 'tok' });
    const agency = await callAs();
    expect(await agency.json()).toEqual({ account: 'agency', contacts: 1, shopToken: null });
    const [toAcme, toAgency] = outbound.requests;
    expect(toAcme?.headers.get('x-api-key')).toBe('pk_acme_stored');
    expect(toAgency?.headers.get('x-api-key')).toBe('pk_agency');
    expect(logged.join('\n')).not.toContain('pk_acme_stored');
  });

  it('uses a key rotated in another isolate within a minute of reading it: one cache, expiring with the stored entry', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
      const record = { baseUrl: 'https://acme.platform.test', secrets: {} };
      expect((await store('client-clock', { ...record, apiKey: 'pk_clock_old' })).status).toBe(200);
      // Read at 12:00:00 by something else of this isolate (the relay, a GET of /accounts).
      await readStoredAccount(testEnv, 'client-clock');
      vi.setSystemTime(Date.now() + 50_000);
      expect((await callAs('client-clock')).status).toBe(200);
      // Another isolate rotates the key: this one is not told.
      const namespace = testEnv.ACCOUNT_STORE as DurableObjectNamespace<AccountStore>;
      const secret = testEnv.ACCOUNTS_SECRET as string;
      await namespace.get(namespace.idFromName('client-clock')).write({
        blob: await seal(secret, 'client-clock', JSON.stringify({ ...record, apiKey: 'pk_clock_new' })),
        updatedAt: Date.now(),
      });
      // 65 s after the read: the copy read then is over, and so is what was resolved from it.
      vi.setSystemTime(Date.now() + 15_000);
      expect((await callAs('client-clock')).status).toBe(200);
      expect(outbound.requests.map((request) => request.headers.get('x-api-key'))).toEqual([
        'pk_clock_old',
        'pk_clock_new',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('never sends a stored key to a stored address that is not https (a record stored before the rule, or under dev)', async () => {
    await writeStoredAccount(testEnv, 'client-plain', {
      apiKey: 'pk_plain',
      baseUrl: 'http://plain.platform.test',
      secrets: {},
    });
    const call = await callAs('client-plain');
    expect(call.status).toBe(503);
    const relayed = await fetchWorker(
      new Request(`${ORIGIN}/accounts/client-plain/platform/v1/custom-functions`, {
        headers: { authorization: `Bearer ${await accountsKey(SECRET)}` },
      }),
    );
    expect(relayed.status).toBe(409);
    expect(outbound.requests).toEqual([]);
    expect(logged.join('\n')).not.toContain('pk_plain');
  });

  it('answers 401 for an account neither listed nor stored, and a swapped account', async () => {
    expect((await callAs('client-nobody')).status).toBe(401);
    await store('client-b', { apiKey: 'pk_b', baseUrl: 'https://acme.platform.test' });
    const keyOfB = await functionKey(SECRET, 'count_contacts', 'client-b');
    const swapped = await fetchWorker(
      new Request(`${ORIGIN}/functions/count_contacts?account=agency&key=${keyOfB}`, { method: 'POST', body: '{}' }),
    );
    expect(swapped.status).toBe(401);
  });

  it('answers a 503 the model can read for an account whose key is missing, logging which account; the others work', async () => {
    const missing = await callAs('client-unkeyed');
    expect(missing.status).toBe(503);
    const { error } = (await missing.json()) as { error: { message: string } };
    expect(error.message).toContain('Tell the customer');
    expect(
      logged.some((line) => line.includes('"account":"client-unkeyed"') && line.includes('npm run accounts')),
    ).toBe(true);
    expect((await callAs()).status).toBe(200);
  });
});
