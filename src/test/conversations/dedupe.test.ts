import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { FunctionError } from '../../errors.ts';
import { through, withEnv } from '../../testing/call.ts';
import { ExpectedFault } from '../expectedFault.ts';
import { env, errorOf } from '../helpers.ts';

const runs = new Map<string, number>();
const count = (key: string) => runs.set(key, (runs.get(key) ?? 0) + 1).get(key) as number;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const worker = createWorker({
  conversations: conversationFeatures,
  functions: {
    dd_book: defineFunction({
      description: 'Books a table for the tests: a write, so repeats in a conversation do not run.',
      parameters: z.object({ tag: z.string(), when: z.string().trim(), slowMs: z.number().default(0) }),
      handler: async ({ tag, when, slowMs }) => {
        const run = count(tag);
        if (slowMs) await sleep(slowMs);
        return { booked: when, run };
      },
    }),
    dd_handoff: defineFunction({
      description: 'Hands over for the tests: one per conversation whatever the summary says.',
      parameters: z.object({ tag: z.string(), summary: z.string() }),
      dedupe: { key: () => 'handoff' },
      handler: ({ tag, summary }) => ({ summary, run: count(tag) }),
    }),
    dd_refuse: defineFunction({
      description: 'Refuses on its first run for the tests, then succeeds.',
      parameters: z.object({ tag: z.string() }),
      handler: ({ tag }) => {
        if (count(tag) === 1) throw new FunctionError(502, 'busy', 'Try once more in a minute.');
        return { ok: true };
      },
    }),
    dd_crash: defineFunction({
      description: 'Fails unexpectedly after it may have done its work, for the tests.',
      parameters: z.object({ tag: z.string() }),
      handler: ({ tag }) => {
        count(tag);
        throw new ExpectedFault('connection reset after the write');
      },
    }),
    dd_read: defineFunction({
      description: 'A look-up for the tests: never deduplicated.',
      parameters: z.object({ tag: z.string() }),
      effect: 'read',
      handler: ({ tag }) => ({ run: count(tag) }),
    }),
  },
});
const { call } = withEnv(worker, env as Env);
const conversation = (id: string) => ({ contactId: 'ct_1', conversationId: id, channel: 'whatsapp' });
let n = 0;
const fresh = () => `t${++n}-${crypto.randomUUID()}`;

describe('a write within one conversation', () => {
  it('runs once, and a repeat with the same arguments (in any order) gets the first answer', async () => {
    const tag = fresh();
    const first = await call('dd_book', { tag, when: 'Friday 7pm', ...conversation(tag) });
    const again = await call('dd_book', { ...conversation(tag), when: ' Friday 7pm ', tag });
    expect(first.status).toBe(200);
    expect(await again.json()).toEqual(await first.json());
    expect(runs.get(tag)).toBe(1);
  });

  it('runs again with other arguments, in another conversation, and for a call with no conversation id', async () => {
    const tag = fresh();
    await call('dd_book', { tag, when: 'Friday', ...conversation(tag) });
    await call('dd_book', { tag, when: 'Saturday', ...conversation(tag) });
    await call('dd_book', { tag, when: 'Friday', ...conversation(`${tag}-other`) });
    await call('dd_book', { tag, when: 'Friday', contactId: 'ct_1' });
    await call('dd_book', { tag, when: 'Friday' });
    expect(runs.get(tag)).toBe(5);
  });

  it('never shares an answer between two contacts that share a conversation id', async () => {
    const tag = fresh();
    await call('dd_book', { tag, when: 'Friday', contactId: 'ct_a', conversationId: tag });
    await call('dd_book', { tag, when: 'Friday', contactId: 'ct_b', conversationId: tag });
    expect(runs.get(tag)).toBe(2);
  });

  it('lets the function say what makes two calls the same', async () => {
    const tag = fresh();
    const first = await call('dd_handoff', { tag, summary: 'Wants a refund.', ...conversation(tag) });
    const again = await call('dd_handoff', { tag, summary: 'Still wants a refund, upset.', ...conversation(tag) });
    expect(await again.json()).toEqual(await first.json());
    expect(runs.get(tag)).toBe(1);
  });

  it("keeps no answer for a conversation from a call the Worker cannot attribute to the platform (signing on): the customer's own hand-off still runs", async () => {
    const tag = fresh();
    // A url holder who knows Vera's ids, unsigned, first; the platform's signed call of hers after it.
    const unsigned = through({ fetch: (request) => worker.fetch(request, env as Env, createExecutionContext()) });
    const planted = await unsigned.call('dd_handoff', { tag, summary: 'Nothing to see.', ...conversation(tag) });
    expect(planted.status).toBe(200);
    const real = await call('dd_handoff', {
      tag,
      summary: 'My order never came, I want a refund.',
      ...conversation(tag),
    });
    expect(await real.json()).toEqual({ summary: 'My order never came, I want a refund.', run: 2 });
    expect(runs.get(tag)).toBe(2);
  });

  it('makes a repeat that arrives while the first still runs wait for its answer', async () => {
    const tag = fresh();
    const args = { tag, when: 'Monday', slowMs: 300, ...conversation(tag) };
    const [a, b] = await Promise.all([call('dd_book', args), call('dd_book', args)]);
    expect(await a.json()).toEqual({ booked: 'Monday', run: 1 });
    expect(await b.json()).toEqual({ booked: 'Monday', run: 1 });
    expect(runs.get(tag)).toBe(1);
  });

  it('runs each of 50 concurrent duplicates of 10 different calls exactly once', async () => {
    const tags = Array.from({ length: 10 }, fresh);
    const calls = tags.flatMap((tag) =>
      Array.from({ length: 5 }, () => call('dd_book', { tag, when: 'Tuesday', slowMs: 20, ...conversation(tag) })),
    );
    const answers = await Promise.all(calls);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    expect(tags.map((tag) => runs.get(tag))).toEqual(tags.map(() => 1));
  });

  it('lets a repeat run after a refusal the handler chose (nothing happened)', async () => {
    const tag = fresh();
    expect((await call('dd_refuse', { tag, ...conversation(tag) })).status).toBe(502);
    expect((await call('dd_refuse', { tag, ...conversation(tag) })).status).toBe(200);
    expect(runs.get(tag)).toBe(2);
  });

  it('does not run again after an unexpected failure that may have done the work, and says so', async () => {
    const tag = fresh();
    expect((await call('dd_crash', { tag, ...conversation(tag) })).status).toBe(500);
    const again = await call('dd_crash', { tag, ...conversation(tag) });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toContain('may or may not have gone through');
    expect(runs.get(tag)).toBe(1);
  });

  it('never deduplicates a read', async () => {
    const tag = fresh();
    await call('dd_read', { tag, ...conversation(tag) });
    await call('dd_read', { tag, ...conversation(tag) });
    expect(runs.get(tag)).toBe(2);
  });
});

describe('the window store unavailable', () => {
  const broken = {
    getByName: () => ({
      claim: () => Promise.reject(new Error('Durable Object is overloaded')),
    }),
  } as unknown as Env['CALL_LEDGER'];

  it('answers 503 the model can read and runs nothing when the store fails', async () => {
    const tag = fresh();
    const response = await withEnv(worker, { ...(env as Env), CALL_LEDGER: broken }).call('dd_book', {
      tag,
      when: 'Friday',
      ...conversation(tag),
    });
    expect(response.status).toBe(503);
    const error = await errorOf(response);
    expect(error.code).toBe('dedupe_unavailable');
    expect(error.message).toContain('Nothing has changed');
    expect(runs.get(tag)).toBeUndefined();
  });

  it('answers 503 and runs nothing when the binding is missing', async () => {
    const tag = fresh();
    const response = await withEnv(worker, { ...(env as Env), CALL_LEDGER: undefined }).call('dd_book', {
      tag,
      when: 'Friday',
      ...conversation(tag),
    });
    expect(response.status).toBe(503);
    expect(runs.get(tag)).toBeUndefined();
  });

  it('still serves reads and calls without a conversation id', async () => {
    const tag = fresh();
    const noLedger = withEnv(worker, { ...(env as Env), CALL_LEDGER: broken });
    expect((await noLedger.call('dd_read', { tag, ...conversation(tag) })).status).toBe(200);
    expect((await noLedger.call('dd_book', { tag, when: 'Friday', contactId: 'ct_1' })).status).toBe(200);
  });
});

describe('a Worker created without the conversations option', () => {
  const plain = createWorker({
    functions: {
      dd_plain_write: defineFunction({
        description: 'A write on a Worker without conversation features, for the tests.',
        parameters: z.object({ tag: z.string() }),
        handler: ({ tag }) => ({ run: count(tag) }),
      }),
    },
  });

  it('runs every write (nothing of deduplication is bundled) and never touches the ledger', async () => {
    const tag = fresh();
    const noLedger = withEnv(plain, { ...(env as Env), CALL_LEDGER: undefined });
    expect((await noLedger.call('dd_plain_write', { tag, ...conversation(tag) })).status).toBe(200);
    expect((await noLedger.call('dd_plain_write', { tag, ...conversation(tag) })).status).toBe(200);
    expect(runs.get(tag)).toBe(2);
  });
});
