// context.platform inside workerd: a function creates a contact in one line, through the Worker's
// secrets; the platform's side is an intercepted fetch (workerd cannot reach a Node emulator).
import { createExecutionContext } from 'cloudflare:test';
import { contactsOf, PLATFORM_URL as PLATFORM, usePlatform } from 'agent-functions-cli/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { functionKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import { platformFromEnv } from '../../platform/client/fromEnv.ts';
import { FUNCTION_NAME } from '../../platform/protocol/function.ts';
import { signWebhook, verifyWebhook } from '../../platform/protocol/signature.ts';
import { hang, mockOutbound, type Outbound } from '../../testing/outbound.ts';

const SECRET = 'context-secret';

const functions = {
  save_lead: defineFunction({
    description: 'Saves the customer as a contact on the platform.',
    parameters: z.object({ name: z.string().describe('Full name'), phone: z.string().describe('Phone, with +') }),
    handler: async ({ name, phone }, { platform }) => {
      const contact = await platform.contacts.create({ name, phone, channel: 'whatsapp' });
      return { contactId: contact.id };
    },
  }),
  hold_on: defineFunction({
    description: 'Calls the platform, which never answers.',
    parameters: z.object({}),
    timeoutMs: 100,
    handler: async (_args, { platform }) => platform.contacts.list(),
  }),
  offline: defineFunction({
    description: 'Never touches the platform.',
    parameters: z.object({}),
    handler: () => ({ ok: true }),
  }),
};
const worker = createWorker({ functions, platform: platformFromEnv }).fetch;

const env = (extra: Partial<Env> = {}): Env => ({
  FUNCTIONS_SECRET: SECRET,
  PLATFORM_BASE_URL: PLATFORM,
  PLATFORM_API_KEY: 'platform-key',
  ...extra,
});

const invoke = async (name: string, args: unknown, environment = env(), fetch = worker) =>
  fetch(
    new Request(`https://fn.example/functions/${name}?key=${await functionKey(SECRET, name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    }),
    environment,
    createExecutionContext(),
  );

let outbound: Outbound | undefined;
afterEach(() => outbound?.restore());

describe('context.platform', () => {
  it('lets a function create a contact in one line, with the key from PLATFORM_API_KEY', async () => {
    outbound = mockOutbound();
    const platform = usePlatform(outbound, { apiKey: 'platform-key' });
    const response = await invoke('save_lead', { name: 'Ada', phone: '+14155550123' });
    expect(response.status).toBe(200);
    const [contact] = contactsOf(platform);
    expect(await response.json()).toEqual({ contactId: contact?.id });
    expect(contactsOf(platform)).toEqual([
      { id: contact?.id, name: 'Ada', phone: '+14155550123', channel: 'whatsapp' },
    ]);
    const [sent] = outbound.requests;
    expect(sent?.headers.get('x-api-key')).toBe('platform-key');
    expect(await sent?.json()).toEqual({ name: 'Ada', phone: '+14155550123', channel: 'whatsapp' });
  });

  it('answers 503 naming the missing secret when PLATFORM_API_KEY is unset, and logs which account', async () => {
    const logs: string[] = [];
    const restore = setLogSink((line) => logs.push(line));
    try {
      const response = await invoke(
        'save_lead',
        { name: 'Ada', phone: '+14155550123' },
        // Blank is unset: the value is trimmed, as every account's is.
        env({ PLATFORM_API_KEY: ' \n' }),
      );
      expect(response.status).toBe(503);
      const { error } = (await response.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('platform_not_configured');
      expect(error.message).toContain('PLATFORM_API_KEY is not set');
      expect(error.message).not.toContain('PLATFORM_BASE_URL');
      const line = logs.map((l) => JSON.parse(l)).find((l) => l.event === 'account_not_configured');
      expect(line).toMatchObject({ account: 'default', missing: 'PLATFORM_API_KEY', function: 'save_lead' });
    } finally {
      setLogSink(restore);
    }
  });

  it('reaches the platform with PLATFORM_BASE_URL and PLATFORM_API_KEY trimmed', async () => {
    outbound = mockOutbound();
    const platform = usePlatform(outbound, { apiKey: 'platform-key' });
    const response = await invoke(
      'save_lead',
      { name: 'Ada', phone: '+14155550123' },
      env({ PLATFORM_BASE_URL: ` ${PLATFORM} `, PLATFORM_API_KEY: 'platform-key\n' }),
    );
    expect(response.status).toBe(200);
    expect(contactsOf(platform)).toHaveLength(1);
    expect(outbound.requests[0]?.headers.get('x-api-key')).toBe('platform-key');
  });

  it('needs neither secret in a function that never touches the platform', async () => {
    const response = await invoke('offline', {}, env({ PLATFORM_BASE_URL: undefined, PLATFORM_API_KEY: undefined }));
    expect(response.status).toBe(200);
  });

  it('answers 503 and tells the author in the log when worker.ts did not opt in to the platform', async () => {
    const logs: string[] = [];
    const restore = setLogSink((line) => logs.push(line));
    try {
      const withoutPlatform = createWorker({ functions }).fetch;
      const response = await invoke('save_lead', { name: 'Ada', phone: '+14155550123' }, env(), withoutPlatform);
      expect(response.status).toBe(503);
      const { error } = (await response.json()) as { error: { code: string } };
      expect(error.code).toBe('platform_not_configured');
      const line = logs.map((l) => JSON.parse(l)).find((l) => l.event === 'platform_not_enabled');
      expect(line?.hint).toContain('platform: platformFromEnv');
      expect(line?.function).toBe('save_lead');
    } finally {
      setLogSink(restore);
    }
  });

  it('aborts the platform request when the function runs out of time', async () => {
    outbound = mockOutbound().on('GET', `${PLATFORM}/v1/contacts`, hang);
    const response = await invoke('hold_on', {});
    expect(response.status).toBe(504);
    expect(outbound.requests[0]?.signal.aborted).toBe(true);
  });
});

describe('the platform client in workerd', () => {
  it('retries a GET that answered 503 and returns the second answer', async () => {
    let calls = 0;
    outbound = mockOutbound().on('GET', `${PLATFORM}/v1/contacts`, () =>
      ++calls === 1 ? new Response('down', { status: 503 }) : Response.json([{ _id: 'a1', name: 'Ada' }]),
    );
    const client = createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    expect(await client.contacts.list()).toEqual([{ id: 'a1', _id: 'a1', name: 'Ada' }]);
    expect(calls).toBe(2);
  });

  it('signs and verifies a webhook with Web Crypto', async () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = await signWebhook('whsec_w', timestamp, '{"a":1}');
    expect(await verifyWebhook('whsec_w', timestamp, signature, '{"a":1}')).toBe('ok');
    expect(await verifyWebhook('whsec_w', timestamp, signature, '{"a":2}')).toBe('mismatch');
  });
});

describe('the function name rule (one for files, the client and the emulator)', () => {
  it('accepts snake_case names of 1 to 64 characters starting with a letter, and nothing else', () => {
    for (const name of ['quote_plan', 'a', `a${'b'.repeat(63)}`, 'v2_quote']) expect(name).toMatch(FUNCTION_NAME);
    for (const name of ['QuotePrice', '_quote', '1quote', 'quote-price', `a${'b'.repeat(64)}`, '']) {
      expect(name).not.toMatch(FUNCTION_NAME);
    }
  });
});
