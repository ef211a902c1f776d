// The emulator's own rules: every field of the spec's tables validated (4xx, a clear message, nothing
// changed), the three key placements, 401, 403, per-key 429, channels, and the sub-account caps.
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../platform/emulator.ts';
import type { EmulatorState } from '../../platform/state.ts';
import { fnInput, keyOf, raw, useEmulator } from './helpers.ts';

/** Everything the emulator holds, comparable before and after a refused request. */
const snapshot = (state: EmulatorState) =>
  JSON.stringify({
    accounts: state.accounts.map((account) => ({
      nextSeq: account.nextSeq,
      contacts: [...account.contacts.entries()],
      messages: [...account.messages.entries()],
      webhooks: [...account.webhooks.entries()],
      functions: [...account.functions.entries()],
      subAccounts: [...account.subAccounts.entries()],
    })),
  });

type ErrorBody = { error: { code: string; message: string; details?: Array<{ field: string }> } };

/** Sends, then checks the answer is `status` with a message naming `mention`, and that nothing changed. */
const refused = async (
  emulator: RunningEmulator,
  path: string,
  init: RequestInit & { key?: string },
  status: number,
  mention: RegExp,
) => {
  const before = snapshot(emulator.state);
  const response = await raw(emulator, path, init);
  const body = (await response.json()) as ErrorBody;
  expect(response.status).toBe(status);
  expect(body.error.message).toMatch(mention);
  expect(snapshot(emulator.state)).toBe(before);
  return body;
};

const WRONG_TYPES: unknown[] = [42, true, null, ['x'], { x: 1 }];

const emulator = useEmulator();
let contactId = '';
let functionId = '';

beforeAll(async () => {
  const contact = await raw(emulator.current, '/v1/contacts', {
    method: 'POST',
    body: JSON.stringify({ name: 'Ada', phone: '+14155550123', channel: 'whatsapp' }),
  });
  contactId = ((await contact.json()) as { id: string }).id;
  const fn = await raw(emulator.current, '/v1/custom-functions', {
    method: 'POST',
    body: JSON.stringify(fnInput('existing_fn')),
  });
  functionId = ((await fn.json()) as { id: string }).id;
});

const tables: Array<{ path: string; plan?: 'agency'; valid: () => Record<string, unknown> }> = [
  { path: '/v1/contacts', valid: () => ({ name: 'Grace', phone: '+447700900123', channel: 'whatsapp' }) },
  { path: '/v1/messages', valid: () => ({ contactId, channel: 'whatsapp', text: 'Hello' }) },
  { path: '/v1/webhooks', valid: () => ({ url: 'https://hooks.example.com/x', events: ['message.received'] }) },
  { path: '/v1/custom-functions', valid: () => fnInput('fresh_fn') },
  { path: '/v1/sub-accounts', plan: 'agency', valid: () => ({ name: 'Client', adminEmail: 'owner@client.example' }) },
];

describe('emulator validation of the spec tables', () => {
  for (const table of tables) {
    describe(`POST ${table.path}`, () => {
      const fields = () => Object.keys(table.valid());
      it('answers 422 naming each missing field, and changes nothing', async () => {
        for (const field of fields()) {
          const { [field]: _, ...body } = table.valid();
          const key = keyOf(emulator.current, table.plan);
          const error = await refused(
            emulator.current,
            table.path,
            { method: 'POST', key, body: JSON.stringify(body) },
            422,
            new RegExp(`${field} is required`),
          );
          expect(error.error.code).toBe('validation_failed');
          expect(error.error.details?.map((d) => d.field)).toEqual([field]);
        }
      });

      it('answers 422 naming each field of the wrong type, and changes nothing', async () => {
        for (const field of fields()) {
          for (const wrong of WRONG_TYPES) {
            const body = { ...table.valid(), [field]: wrong };
            const key = keyOf(emulator.current, table.plan);
            await refused(
              emulator.current,
              table.path,
              { method: 'POST', key, body: JSON.stringify(body) },
              422,
              new RegExp(field),
            );
          }
        }
      });
    });
  }

  it.each([
    [
      '/v1/contacts',
      { name: 'Ada', phone: '4155550123', channel: 'whatsapp' },
      /phone must be in international format/,
    ],
    ['/v1/contacts', { name: '  ', phone: '+14155550123', channel: 'whatsapp' }, /name must not be empty/],
    ['/v1/webhooks', { url: 'http://hooks.example.com', events: ['message.received'] }, /url must be an https URL/],
    ['/v1/webhooks', { url: 'https://hooks.example.com', events: [] }, /at least one event/],
    ['/v1/webhooks', { url: 'https://hooks.example.com', events: [1] }, /events/],
    ['/v1/webhooks', { url: 'https://hooks.example.com', events: ['received'] }, /event type names like/],
    ['/v1/sub-accounts', { name: 'Client', adminEmail: 'not-an-email' }, /adminEmail must be an e-mail address/],
    ['/v1/custom-functions', { ...fnInput('x'), name: 'Quote-Price' }, /snake_case/],
    [
      '/v1/custom-functions',
      { ...fnInput('x'), parameters: { seats: 'integer' } },
      /parameters\.seats: each parameter type must be one of string, number, boolean, array, object/,
    ],
    ['/v1/custom-functions', { ...fnInput('x'), url: 'not a url' }, /url must be an https URL/],
  ])('refuses a bad value in POST %s: %j', async (path, body, message) => {
    await refused(emulator.current, path, { method: 'POST', body: JSON.stringify(body) }, 422, message);
  });

  it('accepts a plain-http function url on this machine (the local Worker)', async () => {
    const response = await raw(emulator.current, '/v1/custom-functions', {
      method: 'POST',
      body: JSON.stringify({ ...fnInput('local_fn'), url: 'http://127.0.0.1:8787/functions/local_fn?key=k' }),
    });
    expect(response.status).toBe(201);
  });

  it('answers 409 to a duplicate name, on create and on a rename, and changes nothing', async () => {
    await refused(
      emulator.current,
      '/v1/custom-functions',
      { method: 'POST', body: JSON.stringify(fnInput('existing_fn')) },
      409,
      /already exists/,
    );
    const other = await raw(emulator.current, '/v1/custom-functions', {
      method: 'POST',
      body: JSON.stringify(fnInput('other_fn')),
    });
    const { id } = (await other.json()) as { id: string };
    await refused(
      emulator.current,
      `/v1/custom-functions/${id}`,
      { method: 'PATCH', body: JSON.stringify({ name: 'existing_fn' }) },
      409,
      /already exists/,
    );
  });

  it('validates updates: an empty one and wrong types are refused', async () => {
    const path = `/v1/custom-functions/${functionId}`;
    await refused(emulator.current, path, { method: 'PATCH', body: '{}' }, 422, /at least one of/);
    await refused(
      emulator.current,
      path,
      { method: 'PATCH', body: JSON.stringify({ parameters: { a: 'float' } }) },
      422,
      /parameters\.a/,
    );
    await refused(
      emulator.current,
      path,
      { method: 'PATCH', body: JSON.stringify({ description: 7 }) },
      422,
      /description/,
    );
  });

  it('gets one custom function by id, and 404s an unknown one', async () => {
    const response = await raw(emulator.current, `/v1/custom-functions/${functionId}`);
    expect(await response.json()).toMatchObject({ id: functionId, name: 'existing_fn' });
    await refused(emulator.current, '/v1/custom-functions/cf_nope', {}, 404, /No custom function/);
  });

  it('answers 400 to a body that is not JSON or not an object, 415 without a JSON type, 413 when too large', async () => {
    await refused(emulator.current, '/v1/contacts', { method: 'POST', body: '{"name":' }, 400, /not valid JSON/);
    await refused(emulator.current, '/v1/contacts', { method: 'POST', body: '["Ada"]' }, 400, /JSON object/);
    await refused(
      emulator.current,
      '/v1/contacts',
      { method: 'POST', body: 'name=Ada', headers: { 'content-type': 'text/plain' } },
      415,
      /application\/json/,
    );
    await refused(
      emulator.current,
      '/v1/contacts',
      { method: 'POST', body: JSON.stringify({ name: 'x'.repeat(1_100_000) }) },
      413,
      /over/,
    );
  });

  it('answers 404 to an unknown path and 405 to a wrong method', async () => {
    await refused(emulator.current, '/v2/contacts', {}, 404, /No endpoint/);
    const body = await refused(emulator.current, '/v1/contacts', { method: 'DELETE' }, 405, /use GET, POST/);
    expect(body.error.code).toBe('method_not_allowed');
  });

  it('answers 422 to a message through a channel the account has not connected, or to an unknown contact', async () => {
    await refused(
      emulator.current,
      '/v1/messages',
      { method: 'POST', body: JSON.stringify({ contactId, channel: 'telegram', text: 'Hi' }) },
      422,
      /not connected.*whatsapp, email, webchat/,
    );
    await refused(
      emulator.current,
      '/v1/messages',
      { method: 'POST', body: JSON.stringify({ contactId: 'ct_nope', channel: 'whatsapp', text: 'Hi' }) },
      422,
      /not a contact/,
    );
  });
});

describe('emulator authentication', () => {
  it('answers 401 without a key, with a wrong key and with two different keys', async () => {
    await refused(emulator.current, '/v1/contacts', { key: '' }, 401, /No API key/);
    await refused(emulator.current, '/v1/contacts', { key: 'wrong' }, 401, /not valid/);
    await refused(
      emulator.current,
      '/v1/contacts',
      { headers: { authorization: `Bearer ${keyOf(emulator.current, 'agency')}` } },
      401,
      /different API keys/,
    );
  });

  it('answers 403 to every call of a plan without API access, and changes nothing', async () => {
    const key = keyOf(emulator.current, 'legacy');
    await refused(emulator.current, '/v1/contacts', { key }, 403, /plan does not include API access/);
    await refused(
      emulator.current,
      '/v1/custom-functions',
      { key, method: 'POST', body: JSON.stringify(fnInput('legacy_fn')) },
      403,
      /plan/,
    );
  });

  it('keeps each account’s records apart', async () => {
    const response = await raw(emulator.current, '/v1/custom-functions', {
      key: keyOf(emulator.current, 'agency_unlimited'),
    });
    const body = (await response.json()) as { data: Array<{ name: string }> };
    expect(body.data.map((fn) => fn.name)).not.toContain('existing_fn');
  });
});

describe('emulator per-key rate limit', () => {
  const limited = useEmulator({ rateLimit: { limit: 3, windowMs: 60_000 } });

  it('answers 429 with Retry-After past the limit, for that key only', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await raw(limited.current, '/v1/contacts')).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refusedAnswer = await raw(limited.current, '/v1/contacts');
    expect(Number(refusedAnswer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await raw(limited.current, '/v1/contacts', { key: keyOf(limited.current, 'agency') })).status).toBe(200);
  });
});

describe('emulator sub-account caps', () => {
  const charged = useEmulator({ agencyExtraSubAccounts: 'charge' });
  const create = (em: RunningEmulator, plan: 'business' | 'agency' | 'agency_unlimited', n: number) =>
    raw(em, '/v1/sub-accounts', {
      method: 'POST',
      key: keyOf(em, plan),
      body: JSON.stringify({ name: `Client ${n}`, adminEmail: `owner${n}@client.example` }),
    });

  it('lets Agency create its 10 included sub-accounts, then refuses the 11th with 402 and changes nothing', async () => {
    for (let n = 1; n <= 10; n++) expect((await create(emulator.current, 'agency', n)).status).toBe(201);
    await refused(
      emulator.current,
      '/v1/sub-accounts',
      {
        method: 'POST',
        key: keyOf(emulator.current, 'agency'),
        body: JSON.stringify({ name: 'Client 11', adminEmail: 'o@c.example' }),
      },
      402,
      /includes 10 client sub-accounts/,
    );
  });

  it('creates the 11th as a charged extra when the emulator runs with agencyExtraSubAccounts: charge', async () => {
    for (let n = 1; n <= 10; n++) await create(charged.current, 'agency', n);
    const response = await create(charged.current, 'agency', 11);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'Client 11', extra: true });
  });

  it('puts no cap on Agency Unlimited', async () => {
    for (let n = 1; n <= 12; n++) expect((await create(emulator.current, 'agency_unlimited', n)).status).toBe(201);
  });

  it('refuses sub-accounts on the Business plan', async () => {
    await refused(
      emulator.current,
      '/v1/sub-accounts',
      { method: 'POST', body: JSON.stringify({ name: 'Client', adminEmail: 'o@c.example' }) },
      403,
      /Agency/,
    );
  });
});
