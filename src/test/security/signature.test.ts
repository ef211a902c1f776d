import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFunction } from '../../define.ts';
import { SIGNATURE_TOLERANCE_SECONDS } from '../../platform/protocol/signature.ts';
import { FIXTURE_FUNCTIONS, fixture } from '../fixture.ts';
import { errorOf, keyOf, nowSeconds, ORIGIN, post, SIGNING_SECRET, signatureHeaders, workerOf } from './harness.ts';

/** A body of the fixture's quote_plan no other test sends. */
const freshBody = () => JSON.stringify({ plan: 'growth', seats: 3, nonce: crypto.randomUUID() });

const signedCall = async (body: string, headers: Record<string, string>) =>
  fixture.fetch(await post('quote_plan', body, headers));

/** A signed GET of `name` with `query` (and the key) in its url. */
const signedGet = async (name: string, query = '', headers?: Record<string, string>) =>
  fixture.fetch(
    new Request(`${ORIGIN}/functions/${name}?${query}${query ? '&' : ''}key=${await keyOf(name)}`, {
      headers: headers ?? (await signatureHeaders('')),
    }),
  );

describe('signed invocations (PLATFORM_SIGNING_SECRET set)', () => {
  it('accepts a correctly signed request', async () => {
    const body = freshBody();
    const response = await signedCall(body, await signatureHeaders(body));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ plan: 'growth', seats: 3 });
  });

  it('accepts a timestamp just inside the tolerance, either way', async () => {
    for (const offset of [-(SIGNATURE_TOLERANCE_SECONDS - 5), SIGNATURE_TOLERANCE_SECONDS - 5]) {
      const body = freshBody();
      const response = await signedCall(body, await signatureHeaders(body, nowSeconds() + offset));
      expect(response.status, `offset ${offset}`).toBe(200);
    }
  });

  it('refuses an altered body with 401', async () => {
    const body = freshBody();
    const headers = await signatureHeaders(body);
    const response = await signedCall(body.replace('"seats":3', '"seats":300'), headers);
    expect(response.status).toBe(401);
    expect(await errorOf(response)).toMatchObject({ code: 'bad_signature' });
  });

  it('refuses a signature made with another secret with 401', async () => {
    const body = freshBody();
    const response = await signedCall(body, await signatureHeaders(body, nowSeconds(), `${SIGNING_SECRET}-old`));
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('bad_signature');
  });

  it('refuses a stale or future timestamp beyond the tolerance with 401: the tolerance bounds replays', async () => {
    for (const offset of [-(SIGNATURE_TOLERANCE_SECONDS + 5), SIGNATURE_TOLERANCE_SECONDS + 5, -86_400 * 365]) {
      const body = freshBody();
      const response = await signedCall(body, await signatureHeaders(body, nowSeconds() + offset));
      expect(response.status, `offset ${offset}`).toBe(401);
      expect((await errorOf(response)).message).toContain('too old or in the future');
    }
  });

  it('refuses malformed signature headers with 401, empty ones included', async () => {
    const body = freshBody();
    const good = await signatureHeaders(body);
    const hex = good['x-webhook-signature'].slice(3);
    const malformed: Record<string, string>[] = [
      { 'x-webhook-signature': good['x-webhook-signature'] },
      { 'x-webhook-timestamp': good['x-webhook-timestamp'] },
      { 'x-webhook-timestamp': '', 'x-webhook-signature': '' },
      { 'x-webhook-timestamp': good['x-webhook-timestamp'], 'x-webhook-signature': '' },
      { 'x-webhook-timestamp': '', 'x-webhook-signature': good['x-webhook-signature'] },
      { 'x-webhook-signature': '' },
      { ...good, 'x-webhook-signature': hex },
      { ...good, 'x-webhook-signature': `v2=${hex}` },
      { ...good, 'x-webhook-signature': `sha256=${hex}` },
      { ...good, 'x-webhook-signature': `v1=${hex.slice(2)}` },
      { ...good, 'x-webhook-signature': `v1=${hex}00` },
      { ...good, 'x-webhook-signature': `v1=${'z'.repeat(64)}` },
      { ...good, 'x-webhook-signature': `v1=${hex},v1=${hex}` },
      { ...good, 'x-webhook-timestamp': `${good['x-webhook-timestamp']}.5` },
      { ...good, 'x-webhook-timestamp': `-${good['x-webhook-timestamp']}` },
      { ...good, 'x-webhook-timestamp': 'yesterday' },
      { ...good, 'x-webhook-timestamp': '9'.repeat(40) },
    ];
    for (const headers of malformed) {
      const response = await signedCall(body, headers);
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect((await errorOf(response)).code).toBe('bad_signature');
    }
  });

  it('serves identical arguments signed in the same second by two conversations, both 200', async () => {
    const body = JSON.stringify({ plan: 'scale', seats: 7 });
    const headers = await signatureHeaders(body);
    const [first, second] = await Promise.all([signedCall(body, headers), signedCall(body, headers)]);
    expect([first?.status, second?.status]).toEqual([200, 200]);
    expect((await signedCall(body, headers)).status).toBe(200);
  });

  it('serves signed GETs to different functions in the same second (both signed over an empty body)', async () => {
    const headers = await signatureHeaders('');
    expect((await signedGet('tell_time', '', headers)).status).toBe(200);
    expect((await signedGet('tell_time', '', headers)).status).toBe(200);
    const empty = defineFunction({
      description: 'Takes nothing.',
      parameters: z.object({}),
      handler: () => ({ ok: 1 }),
    });
    const other = workerOf({ ping: empty });
    const request = new Request(`${ORIGIN}/functions/ping?key=${await keyOf('ping')}`, { headers });
    expect((await other(request)).status).toBe(200);
  });

  it('serves a signed GET with its arguments in the query string, as an unsigned call with the same key', async () => {
    // The signature covers the body only: the key, not the signature, vouches for the query.
    const response = await signedGet('quote_plan', 'plan=scale&seats=400');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ plan: 'scale', seats: 400 });
  });

  it("takes a signed POST's arguments from its signed body, whatever its query string adds", async () => {
    const body = freshBody();
    const url = new URL((await post('quote_plan', body)).url);
    url.searchParams.set('seats', '400');
    const rewritten = await fixture.fetch(
      new Request(url, { method: 'POST', headers: await signatureHeaders(body), body }),
    );
    expect(rewritten.status).toBe(200);
    expect(await rewritten.json()).toMatchObject({ seats: 3 });
  });

  it('still needs the function key when the signature is good', async () => {
    const body = freshBody();
    const request = await post('quote_plan', body, await signatureHeaders(body));
    const url = new URL(request.url);
    url.searchParams.set('key', 'A'.repeat(43));
    const response = await fixture.fetch(new Request(url, request));
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('unauthorized');
  });

  it('refuses query arguments when the operator requires signatures, saying why', async () => {
    const required = workerOf({ quote_plan: FIXTURE_FUNCTIONS.quote_plan }, { PLATFORM_SIGNATURE_REQUIRED: 'true' });
    const request = new Request(`${ORIGIN}/functions/quote_plan?plan=scale&seats=4&key=${await keyOf('quote_plan')}`, {
      headers: await signatureHeaders(''),
    });
    const response = await required(request);
    expect(response.status).toBe(401);
    expect((await errorOf(response)).message).toMatch(
      /requires every call to be signed, and a signature covers the body only: send the arguments as a JSON body/,
    );
    const body = freshBody();
    const signedBody = await required(await post('quote_plan', body, await signatureHeaders(body)));
    expect(signedBody.status).toBe(200);
  });

  it('accepts an unsigned request with the right key unless the operator requires signatures', async () => {
    expect((await signedCall(freshBody(), {})).status).toBe(200);
  });
});

describe('signatures required (PLATFORM_SIGNATURE_REQUIRED=true)', () => {
  const quote = defineFunction({
    description: 'Echoes a number.',
    parameters: z.object({ n: z.int().describe('A number') }),
    handler: ({ n }) => ({ n }),
  });
  const required = workerOf({ quote }, { PLATFORM_SIGNATURE_REQUIRED: 'true' });

  it('refuses the same request with its signature headers removed, or emptied, with 401', async () => {
    const body = '{"n":1}';
    expect((await required(await post('quote', body, await signatureHeaders(body)))).status).toBe(200);
    const stripped = await required(await post('quote', body));
    expect(stripped.status).toBe(401);
    expect((await errorOf(stripped)).message).toMatch(/only accepts signed requests/);
    const emptied = await required(await post('quote', body, { 'x-webhook-timestamp': '', 'x-webhook-signature': '' }));
    expect(emptied.status).toBe(401);
  });

  it('refuses a forged signature whether it is kept or deleted', async () => {
    const body = '{"n":2}';
    const forged = await signatureHeaders(body, nowSeconds(), 'guessed-secret');
    expect((await required(await post('quote', body, forged))).status).toBe(401);
    expect((await required(await post('quote', body))).status).toBe(401);
  });

  it('answers 503 when signatures are required but PLATFORM_SIGNING_SECRET is unset (fails closed)', async () => {
    const unconfigured = workerOf({ quote }, { PLATFORM_SIGNATURE_REQUIRED: 'true', PLATFORM_SIGNING_SECRET: '' });
    const response = await unconfigured(await post('quote', '{"n":3}'));
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('not_configured');
  });
});
