// The fault counts of docs/performance.md for approvals: many requests, approved (from the page or
// by the team's reply) or denied, with injected crashes (a step that fails before it runs, a run
// whose step crashes after the write, an opt-out check that fails) and lost answers (a decision
// event lost before or after delivery, a customer message applied but its answer lost): every
// approved call runs exactly once, every denied one never, and each customer gets at most one message.
import { introspectWorkflow } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveAccounts } from '../../accounts/serve.ts';
import { withApproval } from '../../approval/feature.ts';
import type { ApprovalParams } from '../../approval/params.ts';
import { decideByReply } from '../../approval/reply.ts';
import type { ApprovalOutcome } from '../../approval/workflow.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import { type CallRecord, setRecordSink } from '../../record.ts';
import { ORIGIN, withEnv } from '../../testing/call.ts';
import { mockOutbound } from '../../testing/outbound.ts';
import { ExpectedFault } from '../expectedFault.ts';
import { env } from '../helpers.ts';

const PLATFORM = 'https://platform.approval-faults.test';
const TEAM = { contactId: 'team_inbox', channel: 'whatsapp' };
/** 200 in `npm test`, as the deferred calls' fault test (FAULT_CALLS). */
const CALLS = Number((env as { FAULT_CALLS?: string }).FAULT_CALLS ?? 200);
const BATCH = 50;
const runs = new Map<number, number>();
const told = new Map<number, number>();
const checks = new Map<number, number>();
const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1).get(key) as number;
const injected = { crashesAfterRun: 0, checkCrashes: 0, lostEvents: 0, lostEventAnswers: 0, lostSendAnswers: 0 };
/** Every tenth request is denied; the others approved, from the page (even) or by reply (odd). */
const denied = (i: number) => i % 10 === 9;

// An account of its own, whose team may be asked every request of the run (TEAM_ASK_LIMIT is 20).
const ACCOUNT = 'approval-faults';
const worker = createWorker({
  conversations: withApproval(conversationFeatures, { teamContact: () => TEAM, teamAskLimit: CALLS }),
  accounts: serveAccounts({
    list: [{ name: ACCOUNT, apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
  }),
  functions: {
    fault_refund: defineFunction({
      description: 'A refund counted per call, approved by a person, for the fault tests.',
      parameters: z.object({ i: z.number().int() }),
      handler: ({ i }) => ({ i, run: bump(runs, i) }),
      approval: {
        ask: ({ i }) => `Refund #${i}?`,
        message: (result) => {
          // Every third approved run crashes after its write, before the step keeps its result.
          if (result.i % 3 === 0 && bump(told, result.i) === 1) {
            injected.crashesAfterRun++;
            throw new ExpectedFault('isolate crashed');
          }
          return `refunded ${result.i}`;
        },
        denied: 'Not approved, sorry.',
        expired: 'Nobody decided in time, sorry.',
      },
    }),
  },
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  // Every fifth customer's opt-out check crashes once, before anything is sent.
  mayMessage: (_env, { contactId }) => {
    if (contactId === TEAM.contactId) return true;
    const i = Number(contactId.slice(3));
    if (i % 5 === 0 && bump(checks, i) === 1) {
      injected.checkCrashes++;
      throw new ExpectedFault('opt-out list unreachable');
    }
    return true;
  },
});

// The decision's wake-up goes through a binding that loses some first tries: every third before it
// reaches the instance, every third after (its answer lost, so it is sent again); a retry gets through.
let wakes = 0;
const tries = new Map<string, number>();
const approvalsBinding = (env as Env & { APPROVALS: Workflow<ApprovalParams> }).APPROVALS;
// Only create and get are used by approvals.
const lossy = {
  create: (options: WorkflowInstanceCreateOptions<ApprovalParams>) => approvalsBinding.create(options),
  get: async (id: string) => {
    const instance = await approvalsBinding.get(id);
    return Object.assign(Object.create(instance) as WorkflowInstance, {
      sendEvent: async (event: { type: string; payload: unknown }) => {
        const first = bump(tries, id) === 1;
        const n = first ? wakes++ : 2;
        if (n % 3 === 0) {
          injected.lostEvents++;
          throw new ExpectedFault('connection lost before delivery');
        }
        await instance.sendEvent(event);
        if (n % 3 === 1) {
          injected.lostEventAnswers++;
          throw new ExpectedFault('connection lost after delivery');
        }
      },
    });
  },
} as unknown as Workflow<ApprovalParams>;
const faultEnv = { ...(env as Env), APPROVALS: lossy } as Env;
const { call, send } = withEnv(worker, faultEnv);

const delivered = new Map<string, number>();
const asks = new Map<number, string>();
const outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
  const { contactId, text } = (await request.clone().json()) as { contactId: string; text: string };
  if (contactId === TEAM.contactId) {
    const i = Number(/Refund #(\d+)\?/.exec(text)?.[1]);
    asks.set(i, text);
    return Response.json({ id: `ask_${i}` }, { status: 201 });
  }
  delivered.set(contactId, (delivered.get(contactId) ?? 0) + 1);
  const i = Number(contactId.slice(3));
  // Every seventh customer message is applied but its answer is lost: it is never sent again.
  if (i % 7 === 0) {
    injected.lostSendAnswers++;
    return new Response('bad gateway', { status: 502 });
  }
  return Response.json({ id: `msg_${i}` }, { status: 201 });
});
afterAll(() => outbound.restore());

// Every record (src/record.ts): each ask, decision and approved run makes exactly one.
const records: CallRecord[] = [];
let previousSink: ReturnType<typeof setRecordSink>;
beforeAll(() => {
  previousSink = setRecordSink((record) => records.push(record));
});
afterAll(() => setRecordSink(previousSink));

/** Decides request `i` as a person would: from the page's form, or by the team's reply. */
const decide = async (i: number) => {
  const text = asks.get(i) ?? '';
  const approve = !denied(i);
  if (i % 2 === 1) {
    const code = /\(([A-Z0-9]{4})\)/.exec(text)?.[1] ?? '';
    return decideByReply(faultEnv, ACCOUNT, {
      contactId: TEAM.contactId,
      text: `${approve ? 'approve' : 'deny'} ${code}`,
    });
  }
  const link = /\/approvals\/\S+/.exec(text)?.[0] ?? '';
  const page = await (await send(link)).text();
  const pageToken = /name="page" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const response = await send(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
    body: new URLSearchParams({ decision: approve ? 'approve' : 'deny', page: pageToken }).toString(),
  });
  return response.status;
};

describe('approval faults', () => {
  it(`${CALLS} approvals with crashes and lost answers: each approved call runs once, each customer gets one message`, async () => {
    const workflows = await introspectWorkflow(approvalsBinding as Workflow);
    const outcomes: ApprovalOutcome[] = [];
    try {
      await workflows.modifyAll(async (m) => {
        await m.disableRetryDelays();
        // Every instance's settle step fails once before it runs (a crash), and is retried.
        await m.mockStepError({ name: 'settle' }, new ExpectedFault('isolate crashed'), 1);
      });
      for (let start = 0; start < CALLS; start += BATCH) {
        const batch = Array.from({ length: BATCH }, (_, k) => start + k).filter((i) => i < CALLS);
        const answers = await Promise.all(
          batch.map((i) =>
            call('fault_refund', { i, contactId: `ct_${i}`, conversationId: `cv_${i}`, channel: 'whatsapp' }),
          ),
        );
        for (const answer of answers) {
          expect(((await answer.json()) as { status: string }).status).toBe('pending_approval');
        }
        const decisions = await Promise.all(batch.map(decide));
        expect(decisions.filter((d) => d !== 200 && d !== 'approved' && d !== 'denied')).toEqual([]);
      }
      const instances = await workflows.get();
      expect(instances).toHaveLength(CALLS);
      for (const instance of instances) {
        await instance.waitForStatus('complete');
        outcomes.push((await instance.getOutput()) as ApprovalOutcome);
      }
    } finally {
      await workflows.dispose();
    }
    const expectedRuns = Array.from({ length: CALLS }, (_, i) => (denied(i) ? 0 : 1));
    expect(Array.from({ length: CALLS }, (_, i) => runs.get(i) ?? 0)).toEqual(expectedRuns);
    expect(Array.from({ length: CALLS }, (_, i) => delivered.get(`ct_${i}`) ?? 0).filter((n) => n !== 1)).toEqual([]);
    expect(outcomes.filter((o) => o.decision === 'approved' && o.work === 'done')).toHaveLength(
      expectedRuns.filter(Boolean).length,
    );
    expect(outcomes.filter((o) => o.decision === 'denied' && o.work === 'not_run')).toHaveLength(
      expectedRuns.filter((r) => r === 0).length,
    );
    // The injected faults (docs/performance.md).
    const approved = Array.from({ length: CALLS }, (_, i) => i).filter((i) => !denied(i));
    // One record of each ask, of each decision and of each approved run, crashes and retries notwithstanding.
    const ofKind = (kind: CallRecord['kind']) => records.filter((record) => record.kind === kind);
    expect(ofKind('approval_ask')).toHaveLength(CALLS);
    expect(
      ofKind('approval_decision')
        .map((record) => record.code)
        .sort(),
    ).toEqual(Array.from({ length: CALLS }, (_, i) => (denied(i) ? 'denied' : 'approved')).sort());
    expect(ofKind('approval_run')).toHaveLength(approved.length);
    expect(new Set(ofKind('approval_run').map((record) => record.requestId)).size).toBe(approved.length);
    expect(injected).toEqual({
      crashesAfterRun: approved.filter((i) => i % 3 === 0).length,
      checkCrashes: Math.ceil(CALLS / 5),
      lostEvents: Math.ceil(CALLS / 3),
      lostEventAnswers: Math.ceil((CALLS - 1) / 3),
      lostSendAnswers: Math.ceil(CALLS / 7),
    });
  }, 300_000);
});
