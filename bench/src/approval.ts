// Part 1e: approvals (docs/functions.md "Approval"), on one Worker with the ApprovalDesk and the
// ApprovalRequest workflow: a write that declares approval called below its threshold against the
// same write without it, side by side (interleave.ts), and the ask: calls that need approval, each
// timed until the local platform holds the team's message (the call sends it before it answers).
import { createPlatformClient } from 'agent-functions/platform';
import { functionKey } from 'agent-functions/worker';
import { startEmulator } from '../../scripts/platform/emulator.ts';
import type { BuiltWorker } from './buildWorker.ts';
import { interleavedLoad, type LoadSettings } from './interleave.ts';
import { VALID_BODY } from './invocation.ts';
import type { LoadResult, LoadTarget } from './loadTest.ts';
import { BENCH_SECRET, serveWorker } from './serveWorker.ts';

/** Every round of the two load cases, and each ask's time from the call until the team had it. */
export interface ApprovalResults {
  withoutApproval: LoadResult[];
  belowThreshold: LoadResult[];
  /** From sending a call that needs approval until the local platform held the team's message, in ms. */
  askSentMs: number[];
  /** Team messages the local platform received for those calls (one each is right). */
  asks: number;
}

const CASES = ['withoutApproval', 'belowThreshold'] as const;

/**
 * Serves `built` (bench/workers/projectWithApproval.ts) against a local platform and measures part 1e.
 * @example await measureApproval(built.projectWithApproval, settings)
 */
export const measureApproval = async (
  built: BuiltWorker,
  options: LoadSettings,
  progress: (line: string) => void = () => {},
): Promise<ApprovalResults> => {
  const platform = await startEmulator({ port: 0, rateLimit: false });
  try {
    const account = platform.accounts[0];
    if (!account) throw new Error('the local platform has no account');
    const client = createPlatformClient({ baseUrl: platform.url, apiKey: account.apiKey });
    const team = await client.contacts.create({ name: 'Team inbox', phone: '+15555550199', channel: 'whatsapp' });
    const customer = await client.contacts.create({
      name: 'Bench customer',
      phone: '+15555550100',
      channel: 'whatsapp',
    });
    const served = await serveWorker(built.scriptPath, {
      bindings: { PLATFORM_API_KEY: account.apiKey, PLATFORM_BASE_URL: platform.url, BENCH_TEAM_CONTACT: team.id },
      durableObjects: { CALL_LEDGER: 'CallLedger', APPROVAL_DESK: 'ApprovalDesk' },
      workflows: {
        DEFERRED_CALLS: { name: 'bench-deferred-calls', className: 'DeferredCall' },
        APPROVALS: { name: 'bench-approvals', className: 'ApprovalRequest' },
      },
    });
    try {
      const urlOf = async (name: string) =>
        new URL(`/functions/${name}?key=${await functionKey(BENCH_SECRET, name)}`, served.url).href;
      const valid = JSON.parse(VALID_BODY) as Record<string, unknown>;
      const ids = (conversationId: string) => ({ contactId: customer.id, conversationId, channel: 'whatsapp' });
      // Both in a conversation, as the platform calls them: only the approval differs.
      const body = JSON.stringify({ ...valid, ...ids('cv_bench') });
      const cases: Record<(typeof CASES)[number], LoadTarget> = {
        withoutApproval: { url: await urlOf('quote_write'), body, expectStatus: 200 },
        belowThreshold: { url: await urlOf('quote_approval'), body, expectStatus: 200 },
      };
      const results = await interleavedLoad(CASES, (name) => cases[name], options, 'approval', progress);

      // Calls that need approval, five at a time, each in its own conversation with a customer of its
      // own: a contact's follow-ups are bounded (docs/security.md), and the ask spends one of them.
      const askUrl = await urlOf('quote_ask');
      const calls = Math.max(20, options.rounds * 20);
      const toTeam = () =>
        [...(platform.state.accounts[0]?.messages.values() ?? [])].filter(
          (m) => m.direction === 'outbound' && m.contactId === team.id,
        ).length;
      const askSentMs: number[] = [];
      for (let start = 0; start < calls; start += 5) {
        await Promise.all(
          Array.from({ length: Math.min(5, calls - start) }, async (_, k) => {
            const before = toTeam();
            const began = performance.now();
            const response = await fetch(askUrl, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ ...valid, ...ids(`cv_ask_${start + k}`), contactId: `ct_bench_${start + k}` }),
            });
            const answer = (await response.json()) as { status?: string };
            if (answer.status !== 'pending_approval') {
              throw new Error(`quote_ask answered ${JSON.stringify(answer)}, not pending_approval`);
            }
            // The call sends the ask before it answers: the team holds it by now.
            if (toTeam() <= before) throw new Error('quote_ask answered before the team had its message');
            askSentMs.push(performance.now() - began);
          }),
        );
      }
      progress(`approval: ${calls} asks sent`);
      return { ...results, askSentMs, asks: toTeam() };
    } finally {
      await served.stop();
    }
  } finally {
    await platform.close();
  }
};
