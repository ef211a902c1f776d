// context.once after a failure that may have been applied: a message the platform applied but
// answered 502 (the client marks it possibly applied), or work the time limit stopped after it
// began, keeps its key taken, so the retry of the delivery never sends it twice; the failure is
// logged for someone to check. A clear failure frees the key, so the retry runs the work again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../../events/define.ts';
import { setLogSink } from '../../log.ts';
import { hang } from '../../testing/outbound.ts';
import { eventsEnv, eventsPlatform, eventsWorker, queued } from './helpers.ts';

let sends = 0;
const worker = eventsWorker({
  'deal.won': defineEvent({
    type: 'deal.won',
    payload: z.looseObject({ data: z.looseObject({ dealId: z.string(), contactId: z.string() }) }),
    handler: async ({ data }, { once, platform }) => {
      await once(`thanks:${data.dealId}`, async () => {
        sends++;
        await platform.messages.send({ contactId: data.contactId, channel: 'whatsapp', text: 'Thank you!' });
      });
    },
    timeoutMs: 300,
  }),
});

describe('context.once after a failure', () => {
  let platform: ReturnType<typeof eventsPlatform>;
  let logged: Array<{ event: string; level: string; key?: string }>;
  let restore: () => void;
  beforeEach(() => {
    platform = eventsPlatform();
    sends = 0;
    logged = [];
    const previous = setLogSink((line) => logged.push(JSON.parse(line) as { event: string; level: string }));
    restore = () => setLogSink(previous);
  });
  afterEach(() => {
    restore();
    platform.outbound.restore();
  });

  const deal = (id: string) => queued('deal.won', { dealId: id, contactId: `ct_${id}` });

  it('does not send again a message the platform applied but answered 502, and logs it', async () => {
    const delivery = deal(`d502_${Date.now()}`);
    platform.outbound.on('POST', 'https://platform.test/v1/messages', async (request) => {
      await platform.applyMessage(request);
      return new Response('bad gateway', { status: 502 });
    });
    const first = await worker.consume([delivery]);
    expect(first.retryMessages).toHaveLength(1);
    expect(platform.messages.messages).toHaveLength(1);
    const retry = await worker.consume([delivery], eventsEnv(), 2);
    expect(retry.explicitAcks).toEqual(['msg-0']);
    expect(platform.messages.messages).toHaveLength(1);
    expect(sends).toBe(1);
    expect(logged.find((line) => line.event === 'once_ambiguous')?.level).toBe('error');
  });

  it('does not run again work the time limit stopped after it began', async () => {
    const delivery = deal(`dslow_${Date.now()}`);
    // The platform applies the message, then answers only after the handler's time limit stopped it.
    platform.outbound.on('POST', 'https://platform.test/v1/messages', async (request) => {
      await platform.applyMessage(request.clone());
      return hang(request);
    });
    const first = await worker.consume([delivery]);
    expect(first.retryMessages).toHaveLength(1);
    // The aborted send settles (its once sees the abort) before the delivery comes again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const retry = await worker.consume([delivery], eventsEnv(), 2);
    expect(retry.explicitAcks).toEqual(['msg-0']);
    expect(sends).toBe(1);
    expect(platform.messages.messages).toHaveLength(1);
  });

  it('runs the work again after a failure that certainly changed nothing', async () => {
    const delivery = deal(`d400_${Date.now()}`);
    platform.outbound.on('POST', 'https://platform.test/v1/messages', () =>
      Response.json({ error: { code: 'invalid', message: 'no such channel' } }, { status: 400 }),
    );
    const first = await worker.consume([delivery]);
    expect(first.retryMessages).toHaveLength(1);
    platform.outbound.restore();
    platform = eventsPlatform();
    const retry = await worker.consume([delivery], eventsEnv(), 2);
    expect(retry.explicitAcks).toEqual(['msg-0']);
    expect(sends).toBe(2);
    expect(platform.messages.messages).toHaveLength(1);
  });
});
