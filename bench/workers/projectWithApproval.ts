// Benchmark entry: the quote function as a write without approval, the same with an approval it
// never needs (seats above a threshold no bench call reaches), and one that always asks the team,
// with the bindings a project exports for approvals (bench/src/approval.ts). Deduplication is off
// for all three, so the rows differ only by the approval.
import type { Env } from 'agent-functions';
import { defineFunction } from 'agent-functions';
import { withApproval } from 'agent-functions/approval';
import { conversationFeatures } from 'agent-functions/conversations';
import { platformFromEnv } from 'agent-functions/platform';
import { createWorker } from 'agent-functions/worker';
import { quote } from './quote.ts';
import { quoteSchema } from './quoteSchema.ts';

export { ApprovalDesk, ApprovalRequest } from 'agent-functions/approval';
export { CallLedger, DeferredCall } from 'agent-functions/conversations';

const description = 'Quotes a plan for a number of seats. Call it when the customer asks what a plan costs.';
const approval = (threshold: number) => ({
  when: (args: { seats: number }) => args.seats > threshold,
  ask: (args: { seats: number }) => `Quote ${args.seats} seats?`,
  message: (result: { summary: string }) => result.summary,
  denied: 'A colleague could not approve this quote.',
  expired: 'Nobody could approve the quote in time.',
});

export default createWorker({
  functions: {
    quote_write: defineFunction({ description, parameters: quoteSchema(), dedupe: false, handler: quote }),
    quote_approval: defineFunction({
      description,
      parameters: quoteSchema(),
      dedupe: false,
      handler: quote,
      approval: approval(1_000_000),
    }),
    quote_ask: defineFunction({
      description,
      parameters: quoteSchema(),
      dedupe: false,
      handler: quote,
      approval: approval(0),
    }),
  },
  platform: platformFromEnv,
  conversations: withApproval(conversationFeatures, {
    // The bench asks its one team more often than TEAM_ASK_LIMIT (20 in 10 minutes) allows.
    teamAskLimit: 10_000,
    teamContact: (env) => {
      const contactId = (env as { BENCH_TEAM_CONTACT?: string }).BENCH_TEAM_CONTACT;
      return contactId ? { contactId, channel: 'whatsapp' } : undefined;
    },
  }),
  mayMessage: () => true,
}) satisfies ExportedHandler<Env>;
