// A client onboarded into the account store with its settings (`npm run accounts -- import` with a
// settings column) is served with them at once: its calls see them, over the file's defaults, with
// no entry in the bundle and no redeploy (docs/sync-and-accounts.md "Hundreds of clients").
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accountStore } from '../../accounts/admin.ts';
import { serveAccounts } from '../../accounts/serve.ts';
import { forgetStoredAccount, readStoredAccount } from '../../accounts/store.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { ACCOUNT_QUERY, accountsKey, functionKey } from '../../keys.ts';
import { ORIGIN, SECRET } from '../helpers.ts';

const worker = createWorker({
  functions: {
    my_settings: defineFunction({
      description: 'Answers the settings of the account the call acts in, for the tests.',
      parameters: z.object({}),
      effect: 'read',
      handler: (_args, { account }) => ({ account: account.name, settings: account.settings }),
    }),
  },
  // The bundle lists the agency only, as generate writes it for clients kept in the store.
  accounts: serveAccounts({
    list: [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
    settings: { timezone: 'Europe/London', currency: 'GBP' },
    store: readStoredAccount,
  }),
  accountStore,
});

const fetchWorker = async (path: string, init: RequestInit = {}) => {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, init), env as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};
const put = async (name: string, record: object) =>
  fetchWorker(`/accounts/${name}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${await accountsKey(SECRET)}`, 'content-type': 'application/json' },
    body: JSON.stringify(record),
  });
const callAs = async (account: string) =>
  fetchWorker(
    `/functions/my_settings?${ACCOUNT_QUERY}=${account}&key=${await functionKey(SECRET, 'my_settings', account)}`,
    { method: 'POST', body: '{}' },
  );

beforeEach(() => forgetStoredAccount());

describe('settings kept in the account store', () => {
  it("reach a stored client's calls at once, over the file's defaults", async () => {
    const stored = await put('client-set', {
      apiKey: 'pk_client_set',
      settings: { timezone: 'Europe/Paris', handoffContactId: 'team-of-set' },
    });
    expect(stored.status).toBe(200);
    expect(await stored.json()).toMatchObject({ settingNames: ['handoffContactId', 'timezone'] });
    const response = await callAs('client-set');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      account: 'client-set',
      settings: { timezone: 'Europe/Paris', currency: 'GBP', handoffContactId: 'team-of-set' },
    });
  });

  it('refuse what is not a plain object of named values', async () => {
    const refused = await put('client-bad-set', { apiKey: 'pk_x', settings: { 'time zone': 'x' } });
    expect(refused.status).toBe(422);
  });
});
