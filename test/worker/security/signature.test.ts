import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_TOLERANCE_SECONDS } from '../../../src/platform/signature.ts';
import type { ReplayGuard } from '../../../src/replay.ts';
import { entry, errorOf, nowSeconds, post, SIGNING_SECRET, signatureHeaders, testEnv } from './harness.ts';

/** A quote_price body no other test sends, so its signature is fresh. */
const freshBody = () => JSON.stringify({ plan: 'growth', seats: 3, nonce: crypto.randomUUID() });

const signedCall = async (body: string, headers: Record<string, string>) =>
  entry.fetch(await post('quote_price', body, headers));

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

  it('refuses a stale or future timestamp beyond the tolerance with 401', async () => {
    for (const offset of [-(SIGNATURE_TOLERANCE_SECONDS + 5), SIGNATURE_TOLERANCE_SECONDS + 5, -86_400 * 365]) {
      const body = freshBody();
      const response = await signedCall(body, await signatureHeaders(body, nowSeconds() + offset));
      expect(response.status, `offset ${offset}`).toBe(401);
      expect((await errorOf(response)).message).toContain('too old or in the future');
    }
  });

  it('refuses malformed signature headers with 401', async () => {
    const body = freshBody();
    const good = await signatureHeaders(body);
    const hex = good['x-webhook-signature'].slice(3);
    const malformed: Record<string, string>[] = [
      { 'x-webhook-signature': good['x-webhook-signature'] },
      { 'x-webhook-timestamp': good['x-webhook-timestamp'] },
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

  it('refuses a replay of a captured signed request with 401, in any letter case', async () => {
    const body = freshBody();
    const headers = await signatureHeaders(body);
    expect((await signedCall(body, headers)).status).toBe(200);
    const replay = await signedCall(body, headers);
    expect(replay.status).toBe(401);
    expect(await errorOf(replay)).toMatchObject({ code: 'replayed' });
    const upper = { ...headers, 'x-webhook-signature': `v1=${headers['x-webhook-signature'].slice(3).toUpperCase()}` };
    expect((await signedCall(body, upper)).status).toBe(401);
  });

  it('refuses all but one of concurrent replays', async () => {
    const body = freshBody();
    const headers = await signatureHeaders(body);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () => signedCall(body, headers).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(7);
  });

  it('accepts the same arguments signed again at another time (a new request, not a replay)', async () => {
    const body = freshBody();
    expect((await signedCall(body, await signatureHeaders(body, nowSeconds() - 1))).status).toBe(200);
    expect((await signedCall(body, await signatureHeaders(body, nowSeconds()))).status).toBe(200);
  });

  it('still needs the function key when the signature is good', async () => {
    const body = freshBody();
    const request = await post('quote_price', body, await signatureHeaders(body));
    const url = new URL(request.url);
    url.searchParams.set('key', 'A'.repeat(43));
    const response = await entry.fetch(new Request(url, request));
    expect(response.status).toBe(401);
    expect((await errorOf(response)).code).toBe('unauthorized');
  });

  it('accepts an unsigned request with the right key (signatures are checked when present)', async () => {
    expect((await signedCall(freshBody(), {})).status).toBe(200);
  });
});

describe('the seen-signature store', () => {
  const guard = testEnv.REPLAY_GUARD as DurableObjectNamespace<ReplayGuard>;

  it('forgets a signature once its timestamp has left the window', async () => {
    const stub = guard.getByName('signatures-test-expiry');
    expect(await stub.claim('expired-signature', Date.now() - 1)).toBe(true);
    expect(await stub.claim('expired-signature', Date.now() - 1)).toBe(false);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const left = await runInDurableObject(stub, (_, state) =>
      state.storage.sql.exec('SELECT signature FROM seen').toArray(),
    );
    expect(left).toEqual([]);
    expect(await stub.claim('expired-signature', Date.now() + 60_000)).toBe(true);
  });

  it('keeps a signature that is still inside the window after the alarm', async () => {
    const stub = guard.getByName('signatures-test-keep');
    expect(await stub.claim('old', Date.now() - 1)).toBe(true);
    expect(await stub.claim('recent', Date.now() + 60_000)).toBe(true);
    await runDurableObjectAlarm(stub);
    expect(await stub.claim('recent', Date.now() + 60_000)).toBe(false);
    expect(await stub.claim('old', Date.now() + 60_000)).toBe(true);
  });
});
