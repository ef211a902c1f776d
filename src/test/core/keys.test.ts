import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../bearerToken.ts';
import { functionKey, isFunctionKey, sha256Hex } from '../../keys.ts';
import { send } from '../fixture.ts';
import { errorOf, keyOf } from '../helpers.ts';

const body = JSON.stringify({ plan: 'starter', seats: 1 });

describe('per-function keys', () => {
  it('refuses a call with no key', async () => {
    const res = await send('/functions/quote_plan', { method: 'POST', body });
    expect(res.status).toBe(401);
  });

  it('refuses a wrong key', async () => {
    const res = await send('/functions/quote_plan?key=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', {
      method: 'POST',
      body,
    });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).message).toMatch(/key is missing or wrong/);
  });

  it("refuses another function's key", async () => {
    const res = await send(`/functions/quote_plan?key=${await keyOf('tell_time')}`, {
      method: 'POST',
      body,
    });
    expect(res.status).toBe(401);
  });

  it('accepts the right key in the query string', async () => {
    const res = await send(`/functions/quote_plan?key=${await keyOf('quote_plan')}`, { method: 'POST', body });
    expect(res.status).toBe(200);
  });

  it('accepts the right key in X-Function-Key', async () => {
    const headers = { 'x-function-key': await keyOf('quote_plan') };
    expect((await send('/functions/quote_plan', { method: 'POST', body, headers })).status).toBe(200);
  });

  it('accepts the right key as Authorization: Bearer', async () => {
    const headers = { authorization: `Bearer ${await keyOf('quote_plan')}` };
    expect((await send('/functions/quote_plan', { method: 'POST', body, headers })).status).toBe(200);
  });

  it('derives a 43-character base64url key that changes with the secret and the name', async () => {
    const key = await functionKey('s1', 'a');
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await functionKey('s2', 'a')).not.toBe(key);
    expect(await functionKey('s1', 'b')).not.toBe(key);
    expect(await isFunctionKey('s1', 'a', key)).toBe(true);
    expect(await isFunctionKey('s2', 'a', key)).toBe(false);
    expect(await isFunctionKey('s1', 'a', `${key}x`)).toBe(false);
    expect(await isFunctionKey('s1', 'a', 'not base64!')).toBe(false);
  });
});

describe('bearerToken', () => {
  const withAuthorization = (value?: string) =>
    new Request('https://worker.test/', value === undefined ? {} : { headers: { authorization: value } });

  it('reads the one token of an Authorization: Bearer header, in any case and spacing of the scheme', () => {
    expect(bearerToken(withAuthorization('Bearer abc.DEF-123_'))).toBe('abc.DEF-123_');
    expect(bearerToken(withAuthorization('bearer   abc'))).toBe('abc');
  });

  it('reads nothing from another scheme, two tokens, an empty header or none', () => {
    for (const value of ['Basic abc', 'Bearer abc def', 'Bearer', 'abc', ''])
      expect(bearerToken(withAuthorization(value)), value).toBeUndefined();
    expect(bearerToken(withAuthorization())).toBeUndefined();
  });
});

describe('sha256Hex', () => {
  it("gives the published digests, every byte as two lowercase digits (FIPS 180-2's examples)", async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});
