// The client against a deliberately hostile platform (a real local server): answers of any size are
// capped, ids that would leave their path segment are refused, and platform text in errors is made
// printable. Each case once, as the issue reported it.

import { createPlatformClient, PlatformError, ValidationError } from 'agent-functions/platform';
import { afterEach, describe, expect, it } from 'vitest';
import { endlessList, json, startHostile } from './hostile.ts';

let server: Awaited<ReturnType<typeof startHostile>> | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientOf = (url: string, maxResponseBytes?: number) =>
  createPlatformClient({
    baseUrl: url,
    apiKey: 'k',
    retry: { retries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    timeoutMs: 5_000,
    ...(maxResponseBytes ? { maxResponseBytes } : {}),
  });

const fn = (id: unknown) => ({
  id,
  name: 'a_fn',
  description: 'A.',
  url: 'https://f.test/functions/a_fn',
  parameters: {},
});

describe('a platform that answers without end', () => {
  it('stops reading an endless list at the cap with a clear error, without retrying', async () => {
    server = await startHostile(endlessList);
    const before = process.memoryUsage().rss;
    const error = await clientOf(server.url, 1024 * 1024)
      .customFunctions.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ code: 'response_too_large', retryable: false });
    expect((error as Error).message).toBe(
      "GET /v1/custom-functions: the platform's answer is larger than 1 MiB; stopped reading it. No platform answer should be this large: check PLATFORM_BASE_URL, or raise the limit (maxResponseBytes; sync: --max-response-mib).",
    );
    expect(server.hits).toHaveLength(1);
    expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
  });

  it('caps at 4 MiB by default', async () => {
    server = await startHostile(endlessList);
    const error = await clientOf(server.url)
      .contacts.list()
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain('larger than 4 MiB');
  });

  it('refuses a declared Content-Length over the cap before reading any of it', async () => {
    server = await startHostile((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      response.write('[');
    });
    const error = await clientOf(server.url, 1024)
      .customFunctions.list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'response_too_large' });
  });

  it('counts every page of a list against eight times the cap', async () => {
    let page = 0;
    server = await startHostile((_request, response) => {
      page++;
      json({ data: [fn(`cf_${page}`)], next: `p${page}`, padding: 'z'.repeat(600) })(_request, response);
    });
    const error = await clientOf(server.url, 1024)
      .customFunctions.list()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'response_too_large' });
    expect((error as Error).message).toContain('list (all pages together) is larger than 8 KiB');
    expect(server.hits.length).toBeLessThanOrEqual(12);
  });

  it('still reads an answer just under the cap', async () => {
    const list = [fn('cf_1')];
    const size = Buffer.byteLength(JSON.stringify(list));
    server = await startHostile(json(list));
    expect(await clientOf(server.url, size).customFunctions.list()).toHaveLength(1);
  });

  it('refuses a cap that is not a positive whole number', () => {
    expect(() => clientOf('http://127.0.0.1:1', -1)).toThrow(/maxResponseBytes must be a positive whole number/);
  });
});

describe('record ids that are not one path segment', () => {
  it.each(['.', '..', 'a/b', '../webhooks', '%2e%2e', 'a?b', 'a#b', 'a b', '', 'x'.repeat(257)])(
    'refuses to delete or update id %j, sending nothing',
    async (id) => {
      server = await startHostile(json({}, 204));
      const client = clientOf(server.url);
      for (const attempt of [
        () => client.customFunctions.delete(id),
        () => client.customFunctions.update(id, { description: 'New.' }),
        () => client.webhooks.signingSecret.rotate(id),
      ]) {
        const error = await attempt().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ValidationError);
        expect(error).toMatchObject({ code: 'invalid_id', status: 0 });
      }
      expect(server.hits).toEqual([]);
    },
  );

  it('never turns listed ids "." and ".." into DELETE /v1/ or DELETE /v1/custom-functions/', async () => {
    server = await startHostile((request, response) => {
      if (request.method === 'GET') return json([fn('.'), fn('..'), fn('cf_ok')])(request, response);
      json({}, 204)(request, response);
    });
    const client = clientOf(server.url);
    const listed = await client.customFunctions.list();
    const results = await Promise.allSettled(listed.map((record) => client.customFunctions.delete(record.id)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(server.hits.filter((hit) => hit.method === 'DELETE')).toEqual([
      { method: 'DELETE', path: '/v1/custom-functions/cf_ok' },
    ]);
  });

  it('accepts ordinary ids', async () => {
    server = await startHostile(json({}, 204));
    await clientOf(server.url).customFunctions.delete('cf_01HZX-9a.b~c_d');
    expect(server.hits).toEqual([{ method: 'DELETE', path: '/v1/custom-functions/cf_01HZX-9a.b~c_d' }]);
  });
});

describe('platform text in errors', () => {
  it('strips control characters from the refusal it quotes', async () => {
    server = await startHostile(
      json({ error: { code: 'bad\u001b[31m', message: 'no\r\n✔ Account "prod": in sync\u001b[2K\u0007' } }, 422),
    );
    const error = await clientOf(server.url)
      .customFunctions.create({ name: 'a_fn', description: 'A.', url: 'https://f.test/functions/a_fn', parameters: {} })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    const { message, code } = error as ValidationError;
    expect(
      [...message].filter((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f)),
    ).toEqual([]);
    expect(message).toContain('no\uFFFD\uFFFD✔ Account "prod": in sync\uFFFD[2K\uFFFD');
    expect(code).toBe('bad\uFFFD[31m');
  });
});
