// Benchmark entry: the quote function as a read, as a write (deduplicated per conversation), as a
// `later` function that finishes in time, and a `later` function whose work takes 5 s, with the
// CallLedger and the DeferredCall workflow a project exports with them (bench/src/conversations.ts).
// quote_floor is the floor under any Durable Object check: a read that makes one round trip to a
// ledger and writes nothing.
import type { Env } from 'agent-functions';
import { defineFunction } from 'agent-functions';
import type { CallLedger } from 'agent-functions/conversations';
import { conversationFeatures } from 'agent-functions/conversations';
import { platformFromEnv } from 'agent-functions/platform';
import { createWorker } from 'agent-functions/worker';
import { z } from 'zod';
import { ANSWER_WITHIN_MS, SLOW_WORK_MS } from './deferredTiming.ts';
import { quote } from './quote.ts';
import { quoteSchema } from './quoteSchema.ts';

export { CallLedger, DeferredCall } from 'agent-functions/conversations';

const description = 'Quotes a plan for a number of seats. Call it when the customer asks what a plan costs.';
const later = {
  answerWithinMs: ANSWER_WITHIN_MS,
  interim: 'Working out the quote; the customer gets it as a message in a minute.',
  message: (result: { summary: string }) => result.summary,
};

/** One of ten ledgers, as the write case spreads over ten conversations. */
type LedgerEnv = { CALL_LEDGER: DurableObjectNamespace<CallLedger> };

export default createWorker({
  functions: {
    quote_read: defineFunction({ description, parameters: quoteSchema(), effect: 'read', handler: quote }),
    quote_write: defineFunction({ description, parameters: quoteSchema(), effect: 'write', handler: quote }),
    quote_floor: defineFunction({
      description,
      parameters: quoteSchema(),
      effect: 'read',
      handler: async (args, { env }) => {
        // Releasing a key no call holds: a round trip that changes nothing.
        await (env as unknown as LedgerEnv).CALL_LEDGER.getByName(`floor-${Math.floor(Math.random() * 10)}`).release(
          'none',
        );
        return quote(args);
      },
    }),
    quote_later: defineFunction({ description, parameters: quoteSchema(), effect: 'read', handler: quote, later }),
    quote_slow: defineFunction({
      description,
      parameters: z.object({ seats: z.number().int() }),
      effect: 'read',
      timeoutMs: 10_000,
      handler: async ({ seats }, { signal }) => {
        await scheduler.wait(SLOW_WORK_MS, { signal });
        return { summary: `${seats} seats quoted` };
      },
      later,
    }),
  },
  platform: platformFromEnv,
  conversations: conversationFeatures,
  mayMessage: () => true,
}) satisfies ExportedHandler<Env>;
