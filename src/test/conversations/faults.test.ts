// The fault counts of docs/performance.md: many deferred calls with injected crashes and lost
// send answers each reach the customer exactly once; concurrent duplicate writes each run once.
import { introspectWorkflow } from 'cloudflare:test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import { type CallRecord, setRecordSink } from '../../record.ts';
import { withEnv } from '../../testing/call.ts';
import { mockOutbound } from '../../testing/outbound.ts';
import { ExpectedFault } from '../expectedFault.ts';
import { env } from '../helpers.ts';

const PLATFORM = 'https://platform.faults.test';
/** 100 in `npm test`; `npm run test:faults` runs the 1,000 of docs/performance.md. */
const CALLS = Number((env as { FAULT_CALLS?: string }).FAULT_CALLS ?? 100);
const BATCH = 50;
const workAttempts = new Map<number, number>();
const checkAttempts = new Map<number, number>();
const writeRuns = new Map<number, number>();
const bump = (map: Map<number, number>, key: number) => map.set(key, (map.get(key) ?? 0) + 1).get(key) as number;
const injected = { workCrashes: 0, checkCrashes: 0, lostAnswers: 0 };

const worker = createWorker({
  conversations: conversationFeatures,
  functions: {
    fault_lookup: defineFunction({
      description: 'A slow look-up whose deferred work crashes on purpose, for the fault tests.',
      parameters: z.object({ i: z.number().int() }),
      effect: 'read',
      timeoutMs: 2_000,
      later: {
        answerWithinMs: 100,
        interim: 'Still looking; the customer gets a message when it is done.',
        message: (result) => `result ${result.i}`,
        retries: 3,
      },
      handler: async ({ i }, { signal, deferred }) => {
        if (!deferred) {
          // The call's own attempt: always too slow, so every call is deferred.
          await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
        }
        // Every third call's work crashes on its first deferred attempt.
        if (bump(workAttempts, i) === 1 && i % 3 === 0) {
          injected.workCrashes++;
          throw new ExpectedFault('isolate crashed');
        }
        return { i };
      },
    }),
    fault_write: defineFunction({
      description: 'A write counted per call, for the fault tests.',
      parameters: z.object({ i: z.number().int() }),
      handler: async ({ i }) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { i, run: bump(writeRuns, i) };
      },
    }),
  },
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  // Every fifth call's opt-out check crashes once, before anything is sent.
  mayMessage: (_env, { contactId }) => {
    const i = Number(contactId.slice(3));
    if (bump(checkAttempts, i) === 1 && i % 5 === 0) {
      injected.checkCrashes++;
      throw new ExpectedFault('opt-out list unreachable');
    }
    return true;
  },
});
const { call } = withEnv(worker, env as Env);

const delivered = new Map<string, number>();
const outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
  const { contactId } = (await request.clone().json()) as { contactId: string };
  delivered.set(contactId, (delivered.get(contactId) ?? 0) + 1);
  const i = Number(contactId.slice(3));
  // Every seventh send is applied but its answer is lost: half as a 502, half as a cut connection.
  if (i % 7 === 0) {
    injected.lostAnswers++;
    if (i % 2 === 0) return new Response('bad gateway', { status: 502 });
    throw new TypeError('Network connection lost.');
  }
  return Response.json({ id: `msg_${i}` }, { status: 201 });
});
afterAll(() => outbound.restore());

// Every record (src/record.ts): each call, and each deferred call's work, makes exactly one.
const records: CallRecord[] = [];
let previousSink: ReturnType<typeof setRecordSink>;
beforeAll(() => {
  previousSink = setRecordSink((record) => records.push(record));
});
afterAll(() => setRecordSink(previousSink));
const recordsOf = (name: string, kind: CallRecord['kind']) =>
  records.filter((record) => record.function === name && record.kind === kind);

describe('faults', () => {
  it(`${CALLS} deferred calls with crashes and lost answers reach each customer exactly once`, async () => {
    const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
    try {
      await workflows.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
      for (let start = 0; start < CALLS; start += BATCH) {
        const answers = await Promise.all(
          Array.from({ length: BATCH }, (_, k) =>
            call('fault_lookup', {
              i: start + k,
              contactId: `ct_${start + k}`,
              conversationId: `cv_${start + k}`,
              channel: 'whatsapp',
            }),
          ),
        );
        for (const answer of answers) expect(((await answer.json()) as { status: string }).status).toBe('pending');
      }
      const instances = await workflows.get();
      expect(instances).toHaveLength(CALLS);
      for (const instance of instances) await instance.waitForStatus('complete');
    } finally {
      await workflows.dispose();
    }
    const counts = Array.from({ length: CALLS }, (_, i) => delivered.get(`ct_${i}`) ?? 0);
    expect(counts.filter((c) => c !== 1)).toEqual([]);
    // The injected faults (docs/performance.md): every third work, every fifth check, every seventh answer.
    expect({ ...injected, followUps: counts.reduce((a, b) => a + b, 0) }).toEqual({
      workCrashes: Math.ceil(CALLS / 3),
      checkCrashes: Math.ceil(CALLS / 5),
      lostAnswers: Math.ceil(CALLS / 7),
      followUps: CALLS,
    });
    // One record of each call (deferred) and one of its work, whatever crashed or was retried; a
    // follow-up whose answer was lost is recorded failed (it may or may not have arrived).
    const calls = recordsOf('fault_lookup', 'call');
    const work = recordsOf('fault_lookup', 'deferred');
    expect(calls.filter((record) => record.deferred)).toHaveLength(CALLS);
    expect(new Set(work.map((record) => record.requestId)).size).toBe(CALLS);
    expect(work).toHaveLength(CALLS);
    expect(new Set(work.map((record) => record.requestId))).toEqual(new Set(calls.map((record) => record.requestId)));
    expect(work.filter((record) => record.followUp === 'failed')).toHaveLength(Math.ceil(CALLS / 7));
    expect(work.filter((record) => record.followUp === 'sent')).toHaveLength(CALLS - Math.ceil(CALLS / 7));
  }, 300_000);

  it('concurrent duplicate writes: 200 calls sent 5 times each at once run once each', async () => {
    // 50 distinct calls at a time, each sent 5 times at once: 250 requests in flight.
    for (let start = 0; start < 200; start += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 * 5 }, (_, k) => {
          const i = start + (k % 50);
          return call('fault_write', { i, contactId: 'ct_w', conversationId: `cv_w${i}` });
        }),
      );
      expect(answers.map((a) => a.status).filter((status) => status !== 200)).toEqual([]);
    }
    const runs = Array.from({ length: 200 }, (_, i) => writeRuns.get(i));
    expect(runs.filter((r) => r !== 1)).toEqual([]);
    // A record of each of the 1,000 calls: the 800 answered from the ledger say so.
    const written = recordsOf('fault_write', 'call');
    expect(written).toHaveLength(1_000);
    expect(written.filter((record) => record.repeated)).toHaveLength(800);
  }, 120_000);
});
