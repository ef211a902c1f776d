import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { retryDelaySeconds } from '../../events/consumer.ts';
import { defineEvent } from '../../events/define.ts';
import { setLogSink } from '../../log.ts';
import { eventsEnv, eventsWorker, queued } from './helpers.ts';

const runs: Array<{ stage: string; attempt: number; deliveryId: string }> = [];
let failuresLeft = 0;
let slowMs = 0;

const worker = eventsWorker({
  'deal.moved': defineEvent({
    type: 'deal.moved',
    payload: z.looseObject({ data: z.looseObject({ stage: z.enum(['won', 'lost']) }) }),
    handler: async ({ data }, { attempt, deliveryId, signal }) => {
      if (slowMs) await new Promise((resolve) => setTimeout(resolve, slowMs));
      signal.throwIfAborted();
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error('the CRM is down');
      }
      runs.push({ stage: data.stage, attempt, deliveryId });
    },
    timeoutMs: 200,
  }),
});

describe('the events queue consumer', () => {
  beforeEach(() => {
    runs.length = 0;
    failuresLeft = 0;
    slowMs = 0;
  });
  afterEach(() => {
    failuresLeft = 0;
  });

  it('runs the handler with the validated payload and acknowledges the message', async () => {
    const message = queued('deal.moved', { stage: 'won' });
    const result = await worker.consume([message]);
    expect(result.explicitAcks).toEqual(['msg-0']);
    expect(result.retryMessages).toEqual([]);
    expect(runs).toEqual([{ stage: 'won', attempt: 1, deliveryId: message.deliveryId }]);
  });

  it('runs a delivery the platform sent twice only once, in one batch or in two', async () => {
    const message = queued('deal.moved', { stage: 'won' });
    const first = await worker.consume([message, { ...message, receivedAt: Date.now() + 1 }]);
    // Both at once: one runs, the other waits for its lease (retried), then finds it done.
    expect(first.explicitAcks).toHaveLength(1);
    expect(first.retryMessages).toHaveLength(1);
    const again = await worker.consume([message], eventsEnv(), 2);
    expect(again.explicitAcks).toEqual(['msg-0']);
    expect(again.retryMessages).toEqual([]);
    expect(runs).toHaveLength(1);
  });

  it("runs one event id delivered to two accounts' webhooks once for each account, and a repeat to one of them not again", async () => {
    // The spec does not say whether ids are unique across accounts; a delivery is one account's.
    const acme = { ...queued('deal.moved', { stage: 'won' }, 'evt_shared'), account: 'acme' };
    const globex = { ...acme, account: 'globex' };
    await worker.consume([acme]);
    await worker.consume([globex]);
    await worker.consume([{ ...acme, receivedAt: Date.now() + 1 }]);
    expect(runs.map((run) => run.deliveryId)).toEqual(['id:evt_shared', 'id:evt_shared']);
  });

  it("keeps context.once per account: the same business key in two accounts' events runs in each", async () => {
    const sent: string[] = [];
    const confirming = eventsWorker({
      'appointment.booked': defineEvent({
        type: 'appointment.booked',
        payload: z.looseObject({ data: z.looseObject({ appointmentId: z.string() }) }),
        handler: async ({ data }, { once, account }) => {
          await once(`confirmation:${data.appointmentId}`, async () => {
            sent.push(`${account}:${data.appointmentId}`);
          });
        },
      }),
    });
    // Booking ids are the platform's, and nothing says they are unique across accounts.
    const booked = (account: string) => ({ ...queued('appointment.booked', { appointmentId: 'appt_1' }), account });
    await confirming.consume([booked('acme')]);
    await confirming.consume([booked('globex')]);
    await confirming.consume([booked('acme')]);
    expect(sent).toEqual(['acme:appt_1', 'globex:appt_1']);
  });

  it('runs two different deliveries of the same type each once', async () => {
    await worker.consume([queued('deal.moved', { stage: 'won' }), queued('deal.moved', { stage: 'lost' })]);
    expect(runs.map((run) => run.stage).toSorted()).toEqual(['lost', 'won']);
  });

  it('retries a delivery whose handler throws, with a growing delay, and runs it when it succeeds', async () => {
    const message = queued('deal.moved', { stage: 'won' });
    failuresLeft = 2;
    const first = await worker.consume([message], eventsEnv(), 1);
    expect(first.retryMessages).toEqual([{ msgId: 'msg-0' }]);
    expect(first.delays).toEqual({ 'msg-0': 10 });
    const second = await worker.consume([message], eventsEnv(), 2);
    expect(second.delays).toEqual({ 'msg-0': 20 });
    const third = await worker.consume([message], eventsEnv(), 3);
    expect(third.explicitAcks).toEqual(['msg-0']);
    expect(runs).toEqual([{ stage: 'won', attempt: 3, deliveryId: message.deliveryId }]);
  });

  it('retries a handler that runs past its time limit, its signal aborted', async () => {
    slowMs = 400;
    const result = await worker.consume([queued('deal.moved', { stage: 'won' })]);
    expect(result.retryMessages).toEqual([{ msgId: 'msg-0' }]);
    expect(result.delays).toEqual({ 'msg-0': 10 });
    expect(runs).toEqual([]);
  });

  it('acknowledges and never runs a type without a handler', async () => {
    const result = await worker.consume([queued('contact.created', { name: 'Ada' })]);
    expect(result.explicitAcks).toEqual(['msg-0']);
    expect(runs).toEqual([]);
  });

  it('acknowledges a payload that fails its schema instead of retrying it forever', async () => {
    const result = await worker.consume([queued('deal.moved', { stage: 'maybe' })]);
    expect(result.explicitAcks).toEqual(['msg-0']);
    expect(result.retryMessages).toEqual([]);
    expect(runs).toEqual([]);
  });

  it('acknowledges a message that is not a delivery at all', async () => {
    const result = await worker.consume([{ nonsense: true } as never]);
    expect(result.explicitAcks).toEqual(['msg-0']);
  });

  it('handles one delivery at least once even without the ledger binding (no deduplication then)', async () => {
    const message = queued('deal.moved', { stage: 'won' });
    const bare = eventsEnv({ EVENT_LEDGER: undefined });
    await worker.consume([message], bare);
    await worker.consume([message], bare);
    expect(runs).toHaveLength(2);
  });

  it('logs one line per outcome, naming the type and delivery but never the payload', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const previous = setLogSink((line) => lines.push(JSON.parse(line)));
    const message = queued('deal.moved', { stage: 'won', secretNote: 'do-not-log' });
    try {
      await worker.consume([message]);
      await worker.consume([message]);
      failuresLeft = 1;
      await worker.consume([queued('deal.moved', { stage: 'lost' })]);
      await worker.consume([queued('contact.created', {})]);
    } finally {
      setLogSink(previous);
    }
    // Each run's own line, then its record (src/record.ts): the `invocation` line.
    expect(lines.map((line) => line.event)).toEqual([
      'event_handled',
      'invocation',
      'event_duplicate',
      'invocation',
      'event_failed',
      'invocation',
      'event_unknown_type',
      'invocation',
    ]);
    expect(lines[0]).toMatchObject({ eventType: 'deal.moved', deliveryId: message.deliveryId, attempt: 1 });
    expect(JSON.stringify(lines)).not.toContain('do-not-log');
  });

  it('backs off 10 s, doubling, at most 15 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelaySeconds)).toEqual([10, 20, 40, 80, 160, 320, 900]);
  });
});
