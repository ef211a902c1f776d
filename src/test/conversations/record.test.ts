// The records of the conversation features (src/record.ts): a write answered from the ledger and a
// deferred call are marked on the call's one record; the deferred work makes one record of its own
// in its workflow, with its follow-up sent or failed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import { FunctionError } from '../../errors.ts';
import { callMetrics } from '../../metrics/index.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import type { CallRecord } from '../../record.ts';
import { withEnv } from '../../testing/call.ts';
import { conversation, settleDeferred } from '../../testing/conversations.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { collectRecords, envWithoutFigures, restoreRecordSinkAfterAll } from '../helpers.ts';

const PLATFORM = 'https://platform.records.test';
/** Whether rec_stock's deferred work refuses, and whether the platform refuses the follow-up. */
let refuseWork = false;
let refuseMessage = false;

restoreRecordSinkAfterAll();
const worker = createWorker({
  conversations: conversationFeatures,
  functions: {
    rec_book: defineFunction({
      description: 'Books a table for the record tests: a write, so a repeat is answered from the ledger.',
      parameters: z.object({ when: z.string() }),
      handler: ({ when }) => ({ booked: when }),
    }),
    rec_stock: defineFunction({
      description: 'Checks stock slowly for the record tests: may answer later.',
      parameters: z.object({ sku: z.string() }),
      effect: 'read',
      timeoutMs: 10_000,
      handler: async ({ sku }, { signal, deferred }) => {
        // Seconds in the call, so no loaded machine sees it end before it defers (it is stopped then).
        await scheduler.wait(deferred ? 10 : 8_000, { signal });
        if (refuseWork) throw new FunctionError(404, 'no_such_item', 'No such item.');
        return { summary: `3 of ${sku} in stock` };
      },
      later: {
        answerWithinMs: 1_000,
        interim: 'Checking the stock; a message follows here.',
        message: (result) => result.summary,
        retries: 1,
      },
    }),
  },
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  // Its sink stamps the records' versions; the tests' sink below runs after it.
  metrics: callMetrics(),
});
// Without the figures' bindings: the option's sink stamps the version, and flushes nothing.
const { call } = withEnv(worker, envWithoutFigures());

const records: CallRecord[] = [];
let outbound: Outbound;
collectRecords(records);
beforeEach(() => {
  records.length = 0;
  refuseWork = false;
  refuseMessage = false;
  outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, () =>
    refuseMessage
      ? Response.json({ error: { code: 'invalid_contact', message: 'No such contact.' } }, { status: 400 })
      : Response.json({ id: 'msg_1' }, { status: 201 }),
  );
});
afterEach(() => outbound.restore());

describe('the records of conversation features', () => {
  it('marks a write answered from the ledger as repeated, on its one record', async () => {
    const chat = conversation('ct_rec', { conversationId: 'cv_rec_repeat' });
    await call('rec_book', { when: 'tonight', ...chat });
    await call('rec_book', { when: 'tonight', ...chat });
    expect(records).toEqual([
      expect.objectContaining({ function: 'rec_book', kind: 'call', outcome: 'ok' }),
      expect.objectContaining({ function: 'rec_book', kind: 'call', outcome: 'ok', repeated: true }),
    ]);
    expect(records[0]?.repeated).toBeUndefined();
  });

  it('marks a deferred call, and records its work once in the workflow with the follow-up sent', async () => {
    const chat = conversation('ct_rec', { conversationId: 'cv_rec_deferred' });
    const { result, outcomes } = await settleDeferred(() => call('rec_stock', { sku: 'A1', ...chat }), {
      answerWithinMs: 300,
    });
    expect(await result.json()).toMatchObject({ status: 'pending' });
    expect(outcomes).toEqual([{ work: 'done', message: 'sent' }]);
    // The work may end before the call's interim goes out: each record is found by its kind.
    expect(records).toHaveLength(2);
    const asked = records.find((record) => record.kind === 'call');
    const worked = records.find((record) => record.kind === 'deferred');
    expect(asked).toMatchObject({ transport: 'http', kind: 'call', outcome: 'ok', deferred: true });
    expect(worked).toEqual({
      account: 'default',
      function: 'rec_stock',
      transport: 'workflow',
      kind: 'deferred',
      outcome: 'ok',
      status: 200,
      durationMs: expect.any(Number),
      version: asked?.version,
      followUp: 'sent',
      requestId: asked?.requestId,
    });
    expect(asked?.version).toMatch(/^[0-9a-f]{8}$/);
  });

  it('records deferred work that was refused with its code, and a follow-up the platform refused as failed', async () => {
    refuseWork = true;
    refuseMessage = true;
    const chat = conversation('ct_rec', { conversationId: 'cv_rec_refused' });
    const { outcomes } = await settleDeferred(() => call('rec_stock', { sku: 'B2', ...chat }), {
      answerWithinMs: 300,
    });
    expect(outcomes).toEqual([{ work: 'failed', message: 'failed' }]);
    expect(records.filter((record) => record.kind === 'deferred')).toEqual([
      expect.objectContaining({
        transport: 'workflow',
        outcome: 'refused',
        status: 404,
        code: 'no_such_item',
        followUp: 'failed',
      }),
    ]);
  });
});
