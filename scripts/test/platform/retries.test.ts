// Retries and their limits (docs/platform-contract.md §5), against the emulator's fault injection.

import { NetworkError, RateLimitError, ServerError } from 'agent-functions/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { clientOf, fnInput, useEmulator } from './helpers.ts';

const emulator = useEmulator({ rateLimit: false });

afterEach(() => emulator.current.setFaults({}));

describe('retries', () => {
  it('retries a 429 storm on every method, POST included, and succeeds', async () => {
    emulator.current.setFaults({ rateLimitStorm: { first: 2, retryAfter: '0' } });
    const { client, attempts } = clientOf(emulator.current);
    const created = await client.customFunctions.create(fnInput('storm_post'));
    expect(created.name).toBe('storm_post');
    expect(attempts.map((a) => a.status)).toEqual([429, 429, 201]);
    expect((await client.customFunctions.list()).filter((fn) => fn.name === 'storm_post')).toHaveLength(1);
  });

  it('waits the seconds Retry-After asks for', async () => {
    emulator.current.setFaults({ rateLimitStorm: { first: 1, retryAfter: '1' } });
    const waits: number[] = [];
    const { client, attempts } = clientOf(emulator.current, { wait: async (ms) => void waits.push(ms) });
    await client.contacts.list();
    expect(waits).toEqual([1000]);
    expect(attempts.map((a) => a.status)).toEqual([429, 200]);
  });

  it('throws at once when Retry-After is longer than maxRetryAfterMs', async () => {
    emulator.current.setFaults({ rateLimitStorm: { first: 1, retryAfter: '120' } });
    const { client, attempts } = clientOf(emulator.current);
    const error = await client.contacts.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ retryAfterMs: 120_000 });
    expect((error as Error).message).toContain('wait 120 s');
    expect(attempts).toHaveLength(1);
  });

  it('retries 5xx on GET, PATCH and DELETE', async () => {
    const { client, attempts } = clientOf(emulator.current);
    const fn = await client.customFunctions.create(fnInput('retry_idempotent'));
    emulator.current.setFaults({ serverErrors: { first: 2, status: 503 } });
    await client.customFunctions.list();
    emulator.current.setFaults({ serverErrors: { first: 1, status: 502 } });
    await client.customFunctions.update(fn.id, {
      url: 'https://functions.example.com/functions/retry_idempotent?key=2',
    });
    emulator.current.setFaults({ serverErrors: { first: 1, status: 500 } });
    await client.customFunctions.delete(fn.id);
    expect(attempts.map((a) => `${a.method} ${a.status}`)).toEqual([
      'POST 201',
      'GET 503',
      'GET 503',
      'GET 200',
      'PATCH 502',
      'PATCH 200',
      'DELETE 500',
      'DELETE 200',
    ]);
  });

  it('does not retry a POST that answered 5xx, and says it may have been applied', async () => {
    emulator.current.setFaults({ serverErrors: { first: 1, methods: ['POST'] } });
    const { client, attempts } = clientOf(emulator.current);
    const error = await client.customFunctions.create(fnInput('post_5xx')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ ambiguous: true, retryable: false, status: 503 });
    expect((error as Error).message).toMatch(/list before sending it again/);
    expect(attempts).toHaveLength(1);
  });

  it('reports a create whose answer was lost as ambiguous; the function exists once', async () => {
    emulator.current.setFaults({ loseCreateAnswer: { count: 1 } });
    const { client, attempts } = clientOf(emulator.current);
    const error = await client.customFunctions.create(fnInput('lost_answer')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ ambiguous: true, retryable: false });
    expect(attempts.map((a) => a.status)).toEqual(['network-error']);
    const listed = (await client.customFunctions.list()).filter((fn) => fn.name === 'lost_answer');
    expect(listed).toHaveLength(1);
  });

  it('reports a create answered 502 after it was applied as an ambiguous ServerError', async () => {
    emulator.current.setFaults({ loseCreateAnswer: { count: 1, mode: '502' } });
    const { client } = clientOf(emulator.current);
    const error = await client.customFunctions.create(fnInput('lost_502')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ ambiguous: true, status: 502 });
    expect((await client.customFunctions.list()).some((fn) => fn.name === 'lost_502')).toBe(true);
  });

  it('retries a GET whose connection dropped', async () => {
    emulator.current.setFaults({ dropConnections: { first: 1 } });
    const { client, attempts } = clientOf(emulator.current);
    await client.contacts.list();
    expect(attempts.map((a) => a.status)).toEqual(['network-error', 200]);
  });

  it('treats a DELETE whose first answer was lost and whose retry finds nothing as done', async () => {
    const { client, attempts } = clientOf(emulator.current);
    const fn = await client.customFunctions.create(fnInput('lost_delete'));
    emulator.current.setFaults({ loseAnswers: { first: 1, methods: ['DELETE'] } });
    await expect(client.customFunctions.delete(fn.id)).resolves.toBeUndefined();
    expect((await client.customFunctions.list()).some((f) => f.id === fn.id)).toBe(false);
    expect(attempts.filter((a) => a.method === 'DELETE').map((a) => a.status)).toEqual(['network-error', 404]);
  });

  it('still reports NotFoundError for a DELETE of an id that never existed', async () => {
    const { client, attempts } = clientOf(emulator.current);
    await expect(client.customFunctions.delete('cf_never')).rejects.toMatchObject({
      name: 'NotFoundError',
      status: 404,
    });
    expect(attempts).toHaveLength(1);
  });

  it('gives up after the configured number of retries', async () => {
    emulator.current.setFaults({ dropConnections: { first: 100 } });
    const { client, attempts } = clientOf(emulator.current, { retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(client.contacts.list()).rejects.toBeInstanceOf(NetworkError);
    expect(attempts).toHaveLength(3);
  });
});

describe('retry timing', () => {
  it('honours an HTTP-date Retry-After from the platform', async () => {
    const date = new Date(Date.now() + 3000).toUTCString();
    emulator.current.setFaults({ rateLimitStorm: { first: 1, retryAfter: date } });
    const waits: number[] = [];
    const { client, attempts } = clientOf(emulator.current, { wait: async (ms) => void waits.push(ms) });
    await client.contacts.list();
    expect(waits).toHaveLength(1);
    // An HTTP date has whole seconds: 2 to 3 s from now.
    expect(waits[0]).toBeGreaterThan(1000);
    expect(waits[0]).toBeLessThanOrEqual(3000);
    expect(attempts.map((a) => a.status)).toEqual([429, 200]);
  });
});
