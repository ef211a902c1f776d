// How the conversation identifiers of a call are read (docs/platform-contract.md §9), found in
// the fourth trust review: whole numbers are ids, an id that cannot be read never quietly turns a
// write's deduplication off, and the time a body takes to arrive never pushes a call into deferral.
import { introspectWorkflow } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { setLogSink } from '../../log.ts';
import { keyOf, withEnv } from '../../testing/call.ts';
import { env } from '../helpers.ts';

const runs = new Map<string, number>();
const count = (key: string) => runs.set(key, (runs.get(key) ?? 0) + 1).get(key) as number;

const worker = createWorker({
  conversations: conversationFeatures,
  functions: {
    id_handoff: defineFunction({
      description: 'Hands over for the tests: a write, one per conversation.',
      parameters: z.object({ tag: z.string() }),
      dedupe: { key: () => 'handoff' },
      handler: ({ tag }) => ({ run: count(tag) }),
    }),
    id_lookup: defineFunction({
      description: 'Looks an order up for the tests: fast, but may answer later.',
      parameters: z.object({ tag: z.string() }),
      effect: 'read',
      // A fast look-up: a store that answers in 50 ms.
      handler: async ({ tag }) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { found: tag };
      },
      later: {
        answerWithinMs: 1_000,
        interim: 'Checking the order; the customer gets a message here in a minute.',
        message: (result) => result.found,
      },
    }),
  },
});
const { call } = withEnv(worker, env as Env);

let logs: Array<Record<string, unknown>>;
let previousSink: ReturnType<typeof setLogSink>;
beforeEach(() => {
  logs = [];
  previousSink = setLogSink((line) => logs.push(JSON.parse(line) as Record<string, unknown>));
});
afterEach(() => {
  setLogSink(previousSink);
});

describe('conversation identifiers', () => {
  it('reads whole numbers as ids: a repeat with a numeric conversation id gets the first answer', async () => {
    const tag = crypto.randomUUID();
    await call('id_handoff', { tag, contactId: 4242, conversationId: 98765 });
    const again = await call('id_handoff', { tag, contactId: 4242, conversationId: 98765 });
    expect(await again.json()).toEqual({ run: 1 });
    expect(runs.get(tag)).toBe(1);
  });

  it('refuses a write whose conversation id cannot be read, says so in the log, and never runs it twice', async () => {
    const tag = crypto.randomUUID();
    const first = await call('id_handoff', { tag, contactId: 'c_1', conversationId: 'cv with space' });
    const again = await call('id_handoff', { tag, contactId: 'c_1', conversationId: 'cv with space' });
    expect(first.status).toBe(400);
    expect(again.status).toBe(400);
    expect(((await first.json()) as { error: { code: string } }).error.code).toBe('conversation_unreadable');
    expect(runs.get(tag)).toBeUndefined();
    expect(logs.find((l) => l.event === 'dedupe_off')).toMatchObject({
      reason: 'unreadable_identifier',
      fields: 'conversationId',
    });
  });

  it('counts answerWithinMs from when the arguments are in: a slowly sent body does not defer a fast call', async () => {
    const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
    try {
      const encoder = new TextEncoder();
      const body = JSON.stringify({ tag: 'slow-body', contactId: 'c_2', conversationId: 'cv_2', channel: 'sms' });
      // The body trickles in over 1.5 s, longer than answerWithinMs (1 s); the look-up takes 50 ms.
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const part of [body.slice(0, 10), body.slice(10, 20), body.slice(20)]) {
            controller.enqueue(encoder.encode(part));
            await new Promise((resolve) => setTimeout(resolve, 500));
          }
          controller.close();
        },
      });
      const response = await withEnv(worker, env as Env).send(`/functions/id_lookup?key=${await keyOf('id_lookup')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: stream,
        // @ts-expect-error: workerd's RequestInit takes a streamed body without the duplex of Node's fetch
        duplex: 'half',
      });
      expect(await response.json()).toEqual({ found: 'slow-body' });
      expect(await workflows.get()).toHaveLength(0);
    } finally {
      await workflows.dispose();
    }
  });
});
