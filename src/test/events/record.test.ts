// The record of each delivery run (src/record.ts): one per run of the consumer, naming the event
// type (never a type without a handler), the account whose webhook delivered it, and how it ended.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../../events/define.ts';
import { type CallRecord, setRecordSink } from '../../record.ts';
import { eventsWorker, queued } from './helpers.ts';

let fail = false;
const worker = eventsWorker({
  'deal.moved': defineEvent({
    type: 'deal.moved',
    payload: z.looseObject({ data: z.looseObject({ stage: z.enum(['won', 'lost']) }) }),
    handler: () => {
      if (fail) throw new Error('the CRM is down');
    },
  }),
});

const records: CallRecord[] = [];
let previous: ReturnType<typeof setRecordSink>;
beforeAll(() => {
  previous = setRecordSink((record) => records.push(record));
});
afterAll(() => setRecordSink(previous));
beforeEach(() => {
  records.length = 0;
  fail = false;
});

describe('the record of an event delivery', () => {
  it('records a handled delivery once: its type, account, transport queue and kind event', async () => {
    await worker.consume([{ ...queued('deal.moved', { stage: 'won' }), account: 'acme' }]);
    expect(records).toEqual([
      {
        account: 'acme',
        function: 'deal.moved',
        transport: 'queue',
        kind: 'event',
        outcome: 'ok',
        status: 200,
        code: undefined,
        durationMs: expect.any(Number),
        version: undefined,
        repeated: undefined,
        deferred: undefined,
        followUp: undefined,
        requestId: 'msg-0',
      },
    ]);
  });

  it('records a delivery that was handled before as repeated, and a failed run as an error', async () => {
    const delivery = { ...queued('deal.moved', { stage: 'won' }), account: 'acme' };
    await worker.consume([delivery]);
    await worker.consume([delivery]);
    fail = true;
    await worker.consume([{ ...queued('deal.moved', { stage: 'lost' }), account: 'acme' }]);
    expect(records.map(({ outcome, status, code, repeated }) => ({ outcome, status, code, repeated }))).toEqual([
      { outcome: 'ok', status: 200, code: undefined, repeated: undefined },
      { outcome: 'ok', status: 200, code: undefined, repeated: true },
      { outcome: 'error', status: 500, code: 'event_failed', repeated: undefined },
    ]);
  });

  it('records a type without a handler without the type, and a payload its schema refuses as refused', async () => {
    await worker.consume([queued('contact.secret_type', {})]);
    await worker.consume([queued('deal.moved', { stage: 'maybe' })]);
    expect(records).toEqual([
      expect.objectContaining({ function: null, outcome: 'refused', code: 'event_unknown_type' }),
      expect.objectContaining({ function: 'deal.moved', outcome: 'refused', code: 'event_invalid_payload' }),
    ]);
    expect(JSON.stringify(records)).not.toContain('secret_type');
  });
});
