import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFunction } from '../../define.ts';
import { functionPath } from '../../schema/describe.ts';
import { functionUrl } from '../../url.ts';
import { errorOf, keyOf, ORIGIN, post, workerOf } from './harness.ts';

const OLD_SECRET = 'old-functions-secret-leaked';
const NEW_SECRET = 'new-functions-secret-rotated';

const definitions = {
  look_up: defineFunction({
    description: 'Looks something up. Used by the rotation tests only.',
    parameters: z.object({ query: z.string().describe('What to look up') }),
    handler: ({ query }) => ({ query }),
  }),
  other: defineFunction({
    description: 'Another function, to show every url changes.',
    parameters: z.object({}),
    handler: () => ({ ok: true }),
  }),
};

/** The Worker before the rotation, and after `wrangler secret put FUNCTIONS_SECRET` deployed a new one. */
const oldWorker = workerOf(definitions, { FUNCTIONS_SECRET: OLD_SECRET });
const newWorker = workerOf(definitions, { FUNCTIONS_SECRET: NEW_SECRET });

describe('rotating FUNCTIONS_SECRET', () => {
  it('accepts the old key before the rotation', async () => {
    expect((await oldWorker(await post('look_up', '{"query":"x"}', {}, OLD_SECRET))).status).toBe(200);
  });

  it('refuses the old key after the rotation, however it is presented', async () => {
    const oldKey = await keyOf('look_up', OLD_SECRET);
    const requests = [
      await post('look_up', '{"query":"x"}', {}, OLD_SECRET),
      new Request(`${ORIGIN}/functions/look_up`, {
        method: 'POST',
        headers: { 'x-function-key': oldKey },
        body: '{"query":"x"}',
      }),
      new Request(`${ORIGIN}/functions/look_up`, {
        method: 'POST',
        headers: { authorization: `Bearer ${oldKey}` },
        body: '{"query":"x"}',
      }),
    ];
    for (const request of requests) {
      const response = await newWorker(request);
      expect(response.status).toBe(401);
      expect((await errorOf(response)).code).toBe('unauthorized');
    }
  });

  it('accepts the new key after the rotation', async () => {
    expect((await newWorker(await post('look_up', '{"query":"x"}', {}, NEW_SECRET))).status).toBe(200);
  });

  it('changes the registered url of every function, so one sync replaces them all', async () => {
    for (const name of Object.keys(definitions)) {
      const oldUrl = await functionUrl('https://fns.example.dev', { name, path: functionPath(name) }, OLD_SECRET);
      const newUrl = await functionUrl('https://fns.example.dev', { name, path: functionPath(name) }, NEW_SECRET);
      expect(newUrl).not.toBe(oldUrl);
      expect(newUrl.startsWith('https://fns.example.dev/functions/')).toBe(true);
      const response = await newWorker(
        new Request(newUrl, { method: 'POST', body: name === 'look_up' ? '{"query":"x"}' : '{}' }),
      );
      expect(response.status).toBe(200);
      expect((await newWorker(new Request(oldUrl, { method: 'POST', body: '{}' }))).status).toBe(401);
    }
  });

  it("never accepts one function's key for another", async () => {
    const key = await keyOf('other', NEW_SECRET);
    const response = await newWorker(
      new Request(`${ORIGIN}/functions/look_up?key=${key}`, { method: 'POST', body: '{"query":"x"}' }),
    );
    expect(response.status).toBe(401);
  });
});
