// Each error class the client throws, against the emulator over real HTTP.

import {
  AuthenticationError,
  ConflictError,
  createPlatformClient,
  NetworkError,
  NotFoundError,
  PlanError,
  PlatformError,
  RateLimitError,
  ServerError,
  ValidationError,
} from 'agent-functions/platform';
import { describe, expect, it } from 'vitest';
import { clientOf, closedPort, fnInput, useEmulator } from './helpers.ts';

const emulator = useEmulator({ rateLimit: { limit: 1000, windowMs: 60_000 } });

describe('platform client errors', () => {
  it('throws AuthenticationError for a wrong key, saying to check PLATFORM_API_KEY', async () => {
    const client = createPlatformClient({ baseUrl: emulator.current.url, apiKey: 'not-a-key' });
    const error = await client.contacts.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_api_key', retryable: false });
    expect((error as Error).message).toContain('PLATFORM_API_KEY');
    expect((error as Error).message).not.toContain('not-a-key');
  });

  it('throws PlanError for a plan without API access, with the spec meaning of 403', async () => {
    const { client, attempts } = clientOf(emulator.current, { plan: 'legacy' });
    const error = await client.contacts.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlanError);
    expect((error as Error).message).toMatch(/plan lacks API access/);
    expect(attempts).toHaveLength(1);
  });

  it('throws NotFoundError for an unknown id', async () => {
    const { client } = clientOf(emulator.current);
    await expect(
      client.customFunctions.update('cf_missing', { description: 'Anything at all here.' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('throws ConflictError for a duplicate function name, saying to update instead', async () => {
    const { client } = clientOf(emulator.current);
    await client.customFunctions.create(fnInput('dup_name'));
    const error = await client.customFunctions.create(fnInput('dup_name')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'name_taken', ambiguous: false });
    expect((error as Error).message).toMatch(/update it/);
  });

  it('throws ValidationError for a payload the platform refuses (a channel that is not connected)', async () => {
    const { client } = clientOf(emulator.current);
    const contact = await client.contacts.create({ name: 'Ada', phone: '+14155550123', channel: 'whatsapp' });
    const error = await client.messages
      .send({ contactId: contact.id, channel: 'sms', text: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, code: 'channel_not_connected' });
    expect((error as Error).message).toContain('whatsapp, email, webchat');
  });

  it('refuses an invalid payload before sending it, naming each field', async () => {
    const { client, attempts } = clientOf(emulator.current);
    const before = emulator.current.requests();
    const error = await client.customFunctions
      .create({
        name: 'Bad-Name',
        description: '',
        url: 'http://example.com',
        parameters: { a: 'integer' as 'number' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 0, code: 'invalid_payload' });
    expect((error as Error).message).toMatch(/Not sent.*name.*description.*url.*parameters\.a/s);
    expect(attempts).toHaveLength(0);
    expect(emulator.current.requests()).toBe(before);
  });

  it('throws RateLimitError with retryAfterMs once retries are spent', async () => {
    emulator.current.setFaults({ rateLimitStorm: { first: 10, retryAfter: '0' } });
    try {
      const { client, attempts } = clientOf(emulator.current, { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
      const error = await client.contacts.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ status: 429, retryAfterMs: 0, retryable: true });
      expect(attempts.map((a) => a.status)).toEqual([429, 429, 429]);
    } finally {
      emulator.current.setFaults({});
    }
  });

  it('throws ServerError once GET retries are spent', async () => {
    emulator.current.setFaults({ serverErrors: { first: 10, status: 500 } });
    try {
      const { client, attempts } = clientOf(emulator.current, { retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2 } });
      const error = await client.customFunctions.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      expect(error).toMatchObject({ status: 500, ambiguous: false, retryable: true });
      expect(attempts).toHaveLength(2);
    } finally {
      emulator.current.setFaults({});
    }
  });

  it('throws NetworkError when nothing listens at the base URL', async () => {
    const port = await closedPort();
    const attempts: unknown[] = [];
    const client = createPlatformClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'k',
      retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 2 },
      onRequest: (info) => attempts.push(info.status),
    });
    const error = await client.contacts.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ status: 0, code: 'network_error', timedOut: false });
    expect(attempts).toEqual(['network-error', 'network-error']);
  });

  it('throws a timed-out NetworkError when an answer takes longer than timeoutMs', async () => {
    emulator.current.setFaults({ slowMs: 400 });
    try {
      const { client } = clientOf(emulator.current, { timeoutMs: 50, retry: { retries: 0 } });
      const error = await client.contacts.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: 'timeout', timedOut: true });
      expect((error as Error).message).toContain('no answer within 50 ms');
    } finally {
      emulator.current.setFaults({});
    }
  });

  it('waits slowMs before a refused key too, as a platform far away answers every request late', async () => {
    emulator.current.setFaults({ slowMs: 300 });
    try {
      const client = createPlatformClient({ baseUrl: emulator.current.url, apiKey: 'not-a-key' });
      const started = performance.now();
      const error = await client.contacts.list().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AuthenticationError);
      expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    } finally {
      emulator.current.setFaults({});
    }
  });

  it('stops at once with the caller’s reason when its AbortSignal fires', async () => {
    emulator.current.setFaults({ slowMs: 400 });
    try {
      const controller = new AbortController();
      const { client, attempts } = clientOf(emulator.current, { signal: controller.signal });
      const pending = client.contacts.list();
      setTimeout(() => controller.abort(new Error('user cancelled')), 20);
      await expect(pending).rejects.toThrow('user cancelled');
      expect(attempts).toHaveLength(0);
    } finally {
      emulator.current.setFaults({});
    }
  });

  it('makes every error a PlatformError', async () => {
    const client = createPlatformClient({ baseUrl: emulator.current.url, apiKey: 'nope' });
    await expect(client.contacts.list()).rejects.toBeInstanceOf(PlatformError);
  });
});
