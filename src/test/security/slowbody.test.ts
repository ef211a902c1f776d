import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFunction } from '../../define.ts';
import { errorOf, keyOf, ORIGIN, workerOf } from './harness.ts';

const TIME_LIMIT_MS = 300;
const echo = defineFunction({
  description: 'Echoes a note; a short time limit so a slow body shows quickly.',
  parameters: z.object({ note: z.string().describe('A note') }),
  timeoutMs: TIME_LIMIT_MS,
  handler: ({ note }) => ({ note }),
});
const fetch = workerOf({ echo });

/** A body that sends `text` one byte every `everyMs` milliseconds, as a slow or hostile sender would. */
const trickle = (text: string, everyMs: number) => {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, everyMs));
      if (at >= bytes.byteLength) controller.close();
      else controller.enqueue(bytes.slice(at, ++at));
    },
  });
};

const post = async (body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(
    new Request(`${ORIGIN}/functions/echo?key=${await keyOf('echo')}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit),
  );

describe('a body that does not arrive in time', () => {
  it('answers 408 with a message the model can act on, within the time limit, never a late 200', async () => {
    const started = Date.now();
    const response = await post(trickle('{"note":"hello, slowly"}', 50));
    const elapsed = Date.now() - started;
    expect(response.status).toBe(408);
    const error = await errorOf(response);
    expect(error.code).toBe('body_timeout');
    expect(error.message).toMatch(/did not arrive in time, so the function was not called/);
    expect(elapsed).toBeLessThan(TIME_LIMIT_MS + 250);
  });

  it('answers 408 for a body that stalls after its first bytes', async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"note":'));
      },
    });
    expect((await post(stalled)).status).toBe(408);
  });

  it('answers 408 for a body that stalls short of its declared length', async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"note":'));
      },
    });
    expect((await post(stalled, { 'content-length': '14' })).status).toBe(408);
  });

  it('answers as soon as the declared length has arrived, without waiting for the stream to end', async () => {
    const bytes = new TextEncoder().encode('{"note":"ok"}');
    // All the declared bytes, then a stream that never closes: HTTP framing has already ended the body.
    const open = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
      },
    });
    const response = await post(open, { 'content-length': String(bytes.byteLength) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ note: 'ok' });
  });

  it('serves a body streamed in quick chunks', async () => {
    const response = await post(trickle('{"note":"ok"}', 1));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ note: 'ok' });
  });
});
