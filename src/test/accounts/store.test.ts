// The account store (src/accounts/): the admin endpoint under /accounts stores an account's key and
// secret settings sealed in its own Durable Object, answers names and never values, refuses every
// bad key alike, and readStoredAccount reads a record at most once a minute per isolate.
import { createExecutionContext, runInDurableObject, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accountStore } from '../../accounts/admin.ts';
import { storedListSchema } from '../../accounts/contract.ts';
import {
  accountUnavailable,
  forgetStoredAccount,
  readStoredAccount,
  STORED_ACCOUNT_TTL_MS,
} from '../../accounts/store.ts';
import type { AccountStore } from '../../accounts/storeObject.ts';
import { createWorker } from '../../createWorker.ts';
import type { Env } from '../../env.ts';
import { accountsKey, functionKey, manifestKey, mcpKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { mockOutbound } from '../../testing/outbound.ts';
import { FIXTURE_FUNCTIONS } from '../fixture.ts';
import { SECRET } from '../helpers.ts';

const worker = createWorker({ functions: FIXTURE_FUNCTIONS, accountStore });
const ORIGIN = 'https://fns.example.dev';
const testEnv = env as Env;

const send = async (path: string, init: RequestInit & { key?: string | null } = {}, overrides: Partial<Env> = {}) => {
  const { key, ...rest } = init;
  const headers = new Headers(rest.headers);
  const token = key === undefined ? await accountsKey(SECRET) : key;
  if (token !== null) headers.set('authorization', `Bearer ${token}`);
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}${path}`, { ...rest, headers }),
    { ...testEnv, ...overrides },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return response;
};
const putAccount = (name: string, record: object, overrides: Partial<Env> = {}) =>
  send(
    `/accounts/${name}`,
    { method: 'PUT', body: JSON.stringify(record), headers: { 'content-type': 'application/json' } },
    overrides,
  );
const stub = (name: string) => {
  const namespace = testEnv.ACCOUNT_STORE as DurableObjectNamespace<AccountStore>;
  return namespace.get(namespace.idFromName(name));
};
/** Every value the instance's SQLite storage holds, as one string. */
const rawStorage = (name: string) =>
  runInDurableObject(stub(name), (_, state) =>
    JSON.stringify(state.storage.sql.exec('SELECT * FROM record').toArray()),
  );

let logged: Array<Record<string, unknown>>;
let restoreLog: () => void;
beforeEach(() => {
  logged = [];
  const previous = setLogSink((line) => logged.push(JSON.parse(line) as Record<string, unknown>));
  restoreLog = () => setLogSink(previous);
  forgetStoredAccount();
});
afterEach(() => {
  restoreLog();
  vi.useRealTimers();
});

describe('the account store', () => {
  it('stores a key and answers its account with names, never values', async () => {
    const put = await putAccount('client-round', {
      apiKey: 'pk_live_round_trip_1',
      baseUrl: 'https://acme.example.com',
      secrets: { SHOP_TOKEN: 'store-secret-1' },
    });
    expect(put.status).toBe(200);
    const answer = await send('/accounts/client-round');
    const text = await answer.text();
    expect(answer.status).toBe(200);
    expect(JSON.parse(text)).toMatchObject({ name: 'client-round', stored: true, secretNames: ['SHOP_TOKEN'] });
    expect(text).not.toContain('pk_live_round_trip_1');
    expect(text).not.toContain('store-secret-1');
    expect(await readStoredAccount(testEnv, 'client-round')).toMatchObject({
      apiKey: 'pk_live_round_trip_1',
      baseUrl: 'https://acme.example.com',
      secrets: { SHOP_TOKEN: 'store-secret-1' },
    });
    const list = (await (await send('/accounts')).json()) as { accounts: { name: string }[] };
    expect(list.accounts.map((a) => a.name)).toContain('client-round');
  });

  it('keeps no plaintext in the Durable Object: the key and secrets are sealed', async () => {
    await putAccount('client-sealed', { apiKey: 'pk_live_plaintext_probe', secrets: { HOURS: 'nine-to-five' } });
    const raw = await rawStorage('client-sealed');
    expect(raw).toContain('v1.');
    expect(raw).not.toContain('pk_live_plaintext_probe');
    expect(raw).not.toContain('nine-to-five');
  });

  it('does not open a record copied into another account', async () => {
    await putAccount('client-a', { apiKey: 'pk_live_of_a' });
    await putAccount('client-b', { apiKey: 'pk_live_of_b' });
    const record = await stub('client-a').read();
    await stub('client-b').write(record as NonNullable<typeof record>);
    forgetStoredAccount();
    expect(await readStoredAccount(testEnv, 'client-b')).toBeUndefined();
    expect(logged).toContainEqual(expect.objectContaining({ event: 'account_store_unreadable', account: 'client-b' }));
    expect((await readStoredAccount(testEnv, 'client-a'))?.apiKey).toBe('pk_live_of_a');
  });

  it('does not open a record under another ACCOUNTS_SECRET', async () => {
    await putAccount('client-resecret', { apiKey: 'pk_live_resecret' });
    forgetStoredAccount();
    expect(
      await readStoredAccount({ ...testEnv, ACCOUNTS_SECRET: 'another-accounts-secret-7c2e' }, 'client-resecret'),
    ).toBeUndefined();
    const other = await send('/accounts/client-resecret', {}, { ACCOUNTS_SECRET: 'another-accounts-secret-7c2e' });
    expect(other.status).toBe(409);
    expect(((await other.json()) as { error: { message: string } }).error.message).toContain(
      'npm run accounts -- rotate client-resecret',
    );
  });

  it('reads a record under the previous ACCOUNTS_SECRET while it is rotated, and seals it again under the new', async () => {
    await putAccount('client-reseal', { apiKey: 'pk_reseal' });
    const before = await stub('client-reseal').read();
    const rotated = {
      ...testEnv,
      ACCOUNTS_SECRET: 'the-new-accounts-secret-3f9c1d',
      ACCOUNTS_SECRET_PREVIOUS: testEnv.ACCOUNTS_SECRET,
    };
    forgetStoredAccount();
    expect((await readStoredAccount(rotated, 'client-reseal'))?.apiKey).toBe('pk_reseal');
    const after = await stub('client-reseal').read();
    expect(after?.blob).not.toBe(before?.blob);
    forgetStoredAccount();
    expect(
      (await readStoredAccount({ ...rotated, ACCOUNTS_SECRET_PREVIOUS: undefined }, 'client-reseal'))?.apiKey,
    ).toBe('pk_reseal');
    expect(logged).toContainEqual(
      expect.objectContaining({ event: 'account_store_resealed', account: 'client-reseal' }),
    );
  });

  it('writes nothing for the record it already holds, and says so (an import run twice)', async () => {
    const record = { apiKey: 'pk_same', baseUrl: 'https://same.example.com' };
    const first = (await (await putAccount('client-same', record)).json()) as { changed: boolean; updatedAt: number };
    expect(first.changed).toBe(true);
    const again = (await (await putAccount('client-same', record)).json()) as { changed: boolean; updatedAt: number };
    expect(again).toMatchObject({ changed: false, updatedAt: first.updatedAt });
    const rotated = (await (await putAccount('client-same', { apiKey: 'pk_other' })).json()) as { changed: boolean };
    expect(rotated.changed).toBe(true);
    // A change deep in the settings is a change.
    await putAccount('client-same', { settings: { hours: { mon: '9-17' } } });
    const moved = (await (await putAccount('client-same', { settings: { hours: { mon: '10-18' } } })).json()) as {
      changed: boolean;
    };
    expect(moved.changed).toBe(true);
  });

  it('rotates one account without touching another', async () => {
    await putAccount('client-rot', { apiKey: 'pk_old' });
    await putAccount('client-still', { apiKey: 'pk_still' });
    const before = await readStoredAccount(testEnv, 'client-rot');
    await putAccount('client-rot', { apiKey: 'pk_new' });
    const after = await readStoredAccount(testEnv, 'client-rot');
    expect(after?.apiKey).toBe('pk_new');
    expect(after?.updatedAt).toBeGreaterThanOrEqual(before?.updatedAt ?? 0);
    expect((await readStoredAccount(testEnv, 'client-still'))?.apiKey).toBe('pk_still');
  });

  it('keeps the base address and secrets a rotation leaves out', async () => {
    await putAccount('client-keep', {
      apiKey: 'pk_1',
      baseUrl: 'https://keep.example.com',
      secrets: { SHOP_TOKEN: 's' },
    });
    await putAccount('client-keep', { apiKey: 'pk_2' });
    expect(await readStoredAccount(testEnv, 'client-keep')).toMatchObject({
      apiKey: 'pk_2',
      baseUrl: 'https://keep.example.com',
      secrets: { SHOP_TOKEN: 's' },
    });
  });

  it("moves an account's address only with its key in the same request: the stored key never follows a new address alone", async () => {
    await putAccount('client-moved', { apiKey: 'pk_moved_1', baseUrl: 'https://moved.platform.test' });
    const redirected = await putAccount('client-moved', { baseUrl: 'https://evil.example' });
    expect(redirected.status).toBe(422);
    expect(((await redirected.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'key_required',
      message: expect.stringContaining('needs its key in the same request'),
    });
    forgetStoredAccount();
    expect(await readStoredAccount(testEnv, 'client-moved')).toMatchObject({
      apiKey: 'pk_moved_1',
      baseUrl: 'https://moved.platform.test',
    });
    // The same address again, or a key alone, moves nothing and is taken.
    expect((await putAccount('client-moved', { baseUrl: 'https://moved.platform.test' })).status).toBe(200);
    expect((await putAccount('client-moved', { secrets: { SHOP_TOKEN: 't' } })).status).toBe(200);
    const moved = await putAccount('client-moved', { apiKey: 'pk_moved_2', baseUrl: 'https://new.platform.test' });
    expect(moved.status).toBe(200);
    forgetStoredAccount();
    expect(await readStoredAccount(testEnv, 'client-moved')).toMatchObject({
      apiKey: 'pk_moved_2',
      baseUrl: 'https://new.platform.test',
    });
  });

  it('takes https addresses only, and http to this machine only under npm run dev', async () => {
    const status = async (baseUrl: string, overrides: Partial<Env> = {}) =>
      (await putAccount('client-address', { apiKey: 'pk_address', baseUrl }, overrides)).status;
    const dev = { AGENT_FUNCTIONS_MODE: 'development', AGENT_FUNCTIONS_DEV_HOSTS: 'fns.example.dev' };
    expect(await status('http://platform.example.com')).toBe(422);
    expect(await status('http://127.0.0.1:9400')).toBe(422);
    expect(await status('https://user:pass@platform.example.com')).toBe(422);
    expect(await status('https://platform.example.com')).toBe(200);
    expect(await status('http://127.0.0.1:9400', dev)).toBe(200);
    expect(await status('http://127.5.0.9:9400', dev)).toBe(200);
    expect(await status('http://localhost:9400', dev)).toBe(200);
    expect(await status('http://[::1]:9400', dev)).toBe(200);
    expect(await status('http://10.0.0.7:9400', dev)).toBe(422);
    expect(await status('http://localhost.evil.example', dev)).toBe(422);
  });

  it('merges secrets into the stored ones, removes one given null, and needs a key for a new account', async () => {
    await putAccount('client-merge', { apiKey: 'pk_m', secrets: { A: '1', B: '2' } });
    await putAccount('client-merge', { secrets: { B: null, C: '3' } });
    expect(await readStoredAccount(testEnv, 'client-merge')).toMatchObject({
      apiKey: 'pk_m',
      secrets: { A: '1', C: '3' },
    });
    const keyless = await putAccount('client-keyless', { secrets: { A: '1' } });
    expect(keyless.status).toBe(422);
    expect(((await keyless.json()) as { error: { message: string } }).error.message).toContain('send its apiKey first');
  });

  it('gives calls a 503 the model can read, naming no key or setting', async () => {
    const error = accountUnavailable();
    expect(error.status).toBe(503);
    expect(error.message).toContain('Tell the customer');
    expect(error.message).not.toMatch(/ACCOUNTS_SECRET|ACCOUNT_STORE|key/i);
  });

  it('removes an account: its record, its listing, and what the isolate had read', async () => {
    await putAccount('client-gone', { apiKey: 'pk_gone' });
    expect((await readStoredAccount(testEnv, 'client-gone'))?.apiKey).toBe('pk_gone');
    const removed = await send('/accounts/client-gone', { method: 'DELETE' });
    expect(await removed.json()).toEqual({ name: 'client-gone', stored: false, removed: true });
    expect(await readStoredAccount(testEnv, 'client-gone')).toBeUndefined();
    expect((await send('/accounts/client-gone')).status).toBe(404);
    const list = (await (await send('/accounts')).json()) as { accounts: { name: string }[] };
    expect(list.accounts.map((a) => a.name)).not.toContain('client-gone');
    expect(await rawStorage('client-gone')).toBe('[]');
  });

  it('lists names a page at a time, filtered by their start, in the shape of the endpoint contract', async () => {
    for (const name of ['page-a', 'page-b', 'page-c', 'page_x', 'pagez'])
      await putAccount(name, { apiKey: `pk_${name}` });
    const page = async (query: string) => storedListSchema.parse(await (await send(`/accounts?${query}`)).json());
    const first = await page('prefix=page-&limit=2');
    expect(first.accounts.map((a) => a.name)).toEqual(['page-a', 'page-b']);
    expect(first.next).toBe('page-b');
    const second = await page(`prefix=page-&limit=2&after=${first.next}`);
    expect(second.accounts.map((a) => a.name)).toEqual(['page-c']);
    expect(second.next).toBeUndefined();
    // "_" is a plain character, not a pattern.
    expect((await page('prefix=page_')).accounts.map((a) => a.name)).toEqual(['page_x']);
    expect((await send('/accounts?limit=0')).status).toBe(400);
    expect((await send('/accounts?limit=1001')).status).toBe(400);
  });

  it('reads an account at most once a minute per isolate', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-26T12:00:00Z'));
    await putAccount('client-cached', { apiKey: 'pk_first' });
    expect((await readStoredAccount(testEnv, 'client-cached'))?.apiKey).toBe('pk_first');
    // Another isolate rotates it: this one does not see it until its minute is over.
    const rotated = { ...testEnv };
    const other = await stub('client-cached').read();
    await putAccount('client-cached', { apiKey: 'pk_second' });
    const second = await stub('client-cached').read();
    await stub('client-cached').write(other as NonNullable<typeof other>);
    expect((await readStoredAccount(rotated, 'client-cached'))?.apiKey).toBe('pk_first');
    await stub('client-cached').write(second as NonNullable<typeof second>);
    vi.setSystemTime(Date.now() + STORED_ACCOUNT_TTL_MS - 1000);
    expect((await readStoredAccount(rotated, 'client-cached'))?.apiKey).toBe('pk_first');
    vi.setSystemTime(Date.now() + 2000);
    expect((await readStoredAccount(rotated, 'client-cached'))?.apiKey).toBe('pk_second');
  });

  it('says what to set when ACCOUNTS_SECRET or the binding is missing, and never logs a key', async () => {
    await putAccount('client-logs', { apiKey: 'pk_never_logged' });
    forgetStoredAccount();
    expect(await readStoredAccount({ ...testEnv, ACCOUNTS_SECRET: undefined }, 'client-logs')).toBeUndefined();
    forgetStoredAccount();
    expect(await readStoredAccount({ ...testEnv, ACCOUNT_STORE: undefined }, 'client-logs')).toBeUndefined();
    forgetStoredAccount();
    expect(await readStoredAccount(testEnv, 'client-never-added')).toBeUndefined();
    const lines = logged.map((line) => JSON.stringify(line));
    expect(lines[0]).toContain('ACCOUNTS_SECRET');
    expect(lines[1]).toContain('ACCOUNT_STORE');
    expect(lines[2]).toContain('npm run accounts -- add client-never-added');
    expect(lines.join('\n')).not.toContain('pk_never_logged');
    expect((await putAccount('client-x', { apiKey: 'k' }, { ACCOUNTS_SECRET: undefined })).status).toBe(503);
    const unbound = await putAccount('client-x', { apiKey: 'k' }, { ACCOUNT_STORE: undefined });
    expect(unbound.status).toBe(503);
    expect(((await unbound.json()) as { error: { message: string } }).error.message).toContain('ACCOUNT_STORE');
  });
});

describe('the admin endpoint refuses', () => {
  it('every wrong key with the same 401, whatever was wrong', async () => {
    const wrong = [
      null,
      'not-a-key',
      await manifestKey(SECRET),
      await mcpKey(SECRET),
      await functionKey(SECRET, 'accounts'),
      await accountsKey('another-functions-secret-b81f'),
    ];
    const bodies = new Set<string>();
    for (const key of wrong) {
      for (const [path, method] of [
        ['/accounts', 'GET'],
        ['/accounts/client-z', 'PUT'],
        ['/accounts/client-z', 'DELETE'],
        ['/accounts/client-z/platform/v1/custom-functions', 'GET'],
      ] as const) {
        const response = await send(path, { method, key, ...(method === 'PUT' ? { body: '{"apiKey":"k"}' } : {}) });
        expect(response.status).toBe(401);
        const { error } = (await response.json()) as { error: { code: string; message: string } };
        bodies.add(`${error.code} ${error.message}`);
      }
    }
    expect(bodies.size).toBe(1);
    expect((await send('/accounts', { key: null }, { FUNCTIONS_SECRET: undefined })).status).toBe(401);
  });

  it('a body over 64 KiB, one that is not JSON, and one the schema refuses', async () => {
    const big = await putAccount('client-big', { apiKey: 'k', secrets: { BIG: 'x'.repeat(70 * 1024) } });
    expect(big.status).toBe(413);
    const notJson = await send('/accounts/client-big', { method: 'PUT', body: '{apiKey' });
    expect(notJson.status).toBe(400);
    const invalid = await putAccount('client-big', { apiKey: '', keyPlacement: 'cookie', extra: 1 });
    expect(invalid.status).toBe(422);
    const { error } = (await invalid.json()) as { error: { message: string } };
    expect(error.message).toContain('apiKey');
    expect(error.message).toContain('keyPlacement');
    expect((await putAccount('bad%20name', { apiKey: 'k' })).status).toBe(400);
    expect((await putAccount('bad%E0%A4%A', { apiKey: 'k' })).status).toBe(400);
    expect((await send('/accounts/client-big', { method: 'POST' })).status).toBe(405);
  });
});

describe('the relay', () => {
  it("sends a stored account's platform requests with its key, which the caller never sees", async () => {
    await putAccount('client-relay', {
      apiKey: 'pk_relay_secret',
      baseUrl: 'https://relay.platform.test',
      keyPlacement: 'bearer',
    });
    const outbound = mockOutbound().on('GET', 'https://relay.platform.test/v1/custom-functions', () =>
      Response.json(
        { data: [] },
        { headers: { link: '<https://relay.platform.test/v1/custom-functions?cursor=2>; rel="next"' } },
      ),
    );
    try {
      const answer = await send('/accounts/client-relay/platform/v1/custom-functions?cursor=1');
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ data: [] });
      expect(answer.headers.get('link')).toBe(
        `<${ORIGIN}/accounts/client-relay/platform/v1/custom-functions?cursor=2>; rel="next"`,
      );
      const [sent] = outbound.requests;
      expect(sent?.headers.get('authorization')).toBe('Bearer pk_relay_secret');
      expect(sent?.url).toBe('https://relay.platform.test/v1/custom-functions?cursor=1');
      const signing = await send('/accounts/client-relay/platform/v1/webhooks/w1/signing-secret');
      expect(signing.status).toBe(404);
      expect(outbound.requests).toHaveLength(1);
    } finally {
      outbound.restore();
    }
  });
});
