// Every list shape docs/platform-contract.md §5 allows, normalised to one RemoteFunction shape. The emulator
// answers one shape; the others come from a platform stand-in passed as the client's fetch.

import { createPlatformClient, PlatformError } from 'agent-functions/platform';
import { describe, expect, it } from 'vitest';

const BASE = 'https://platform.example.com';

const record = (n: number, idKey = 'id') => ({
  [idKey]: idKey === '_id' ? n : `cf_${n}`,
  name: `fn_${n}`,
  description: `Function ${n}.`,
  url: `https://functions.example.com/functions/fn_${n}`,
  parameters: { q: 'string' },
});

/** A stand-in platform answering GET /v1/custom-functions page by page; records the urls asked for. */
const pages = (answer: (url: URL) => { body: unknown; headers?: Record<string, string> }) => {
  const asked: URL[] = [];
  const fetch = (async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : input);
    asked.push(url);
    const { body, headers = {} } = answer(url);
    return Response.json(body, { headers });
  }) as typeof globalThis.fetch;
  return { asked, client: createPlatformClient({ baseUrl: BASE, apiKey: 'k', fetch }) };
};

describe('custom-function list normalisation', () => {
  it('reads a bare array', async () => {
    const { client } = pages(() => ({ body: [record(1), record(2)] }));
    expect((await client.customFunctions.list()).map((fn) => fn.id)).toEqual(['cf_1', 'cf_2']);
  });

  it.each(['data', 'items', 'results'])('reads records under "%s", with _id as id', async (key) => {
    const { client } = pages(() => ({ body: { [key]: [record(7, '_id')] } }));
    expect(await client.customFunctions.list()).toEqual([
      {
        id: '7',
        name: 'fn_7',
        description: 'Function 7.',
        url: 'https://functions.example.com/functions/fn_7',
        parameters: { q: 'string' },
      },
    ]);
  });

  it.each(['next', 'nextCursor', 'cursor'])('follows a "%s" cursor, sent back as ?cursor=', async (key) => {
    const { client, asked } = pages((url) =>
      url.searchParams.get('cursor') === 'p2'
        ? { body: { data: [record(2)] } }
        : { body: { data: [record(1)], [key]: 'p2' } },
    );
    expect((await client.customFunctions.list()).map((fn) => fn.name)).toEqual(['fn_1', 'fn_2']);
    expect(asked.map((url) => url.search)).toEqual(['', '?cursor=p2']);
  });

  it('follows a next url in the body and a Link rel="next" header', async () => {
    const { client, asked } = pages((url) => {
      if (url.searchParams.get('page') === '3') return { body: { items: [record(3)] } };
      if (url.searchParams.get('page') === '2') {
        return { body: { items: [record(2)] }, headers: { link: `<${BASE}/v1/custom-functions?page=3>; rel="next"` } };
      }
      return { body: { items: [record(1)], next: '/v1/custom-functions?page=2' } };
    });
    expect((await client.customFunctions.list()).map((fn) => fn.name)).toEqual(['fn_1', 'fn_2', 'fn_3']);
    expect(asked).toHaveLength(3);
  });

  it('refuses to follow a next page on another origin, so the key never leaves', async () => {
    const { client, asked } = pages(() => ({ body: { data: [record(1)], next: 'https://evil.example.net/v1/x' } }));
    await expect(client.customFunctions.list()).rejects.toMatchObject({ code: 'foreign_next_page' });
    expect(asked).toHaveLength(1);
  });

  it('stops when the platform sends the same next page again', async () => {
    const { client } = pages(() => ({ body: { data: [record(1)], next: 'again' } }));
    const error = await client.customFunctions.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ code: 'pagination_loop' });
  });
});
