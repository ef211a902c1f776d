// Under `npm run dev` the Worker serves every function without a key (when FUNCTIONS_SECRET is
// unset) and the manifest without a token. A web page the developer happens to open must not be
// able to use that: a cross-site request (any Origin not on this machine) and a request for a
// host name that is not this machine (DNS rebinding) are refused; curl, the local platform and
// the console, which send no foreign Origin and name 127.0.0.1 or localhost, are served.
import { describe, expect, it } from 'vitest';
import { fixtureWith } from '../fixture.ts';
import { errorOf } from '../helpers.ts';

const dev = fixtureWith({ AGENT_FUNCTIONS_MODE: 'development', FUNCTIONS_SECRET: '' });
const echo = (origin: string, headers: Record<string, string> = {}) =>
  dev.fetch(
    new Request(`${origin}/functions/tell_time`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: '{}',
    }),
  );

describe('the Worker under npm run dev', () => {
  it('refuses a cross-site form post (text/plain, a foreign Origin) to a function', async () => {
    const res = await dev.fetch(
      new Request('http://127.0.0.1:8787/functions/tell_time', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
        body: '{}',
      }),
    );
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({
      code: 'foreign_origin',
      message: expect.stringContaining('https://evil.example'),
    });
  });

  it('refuses the manifest to a host name that is not this machine (DNS rebinding)', async () => {
    const res = await dev.fetch(new Request('http://rebound.evil.example:8787/functions'));
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({
      code: 'unknown_host',
      message: expect.stringContaining('AGENT_FUNCTIONS_DEV_HOSTS'),
    });
  });

  it('refuses an Origin of "null" (a sandboxed page or a file)', async () => {
    expect((await echo('http://127.0.0.1:8787', { origin: 'null' })).status).toBe(403);
  });

  it('serves this machine by every name and address, with or without a local Origin', async () => {
    for (const origin of [
      'http://127.0.0.1:8787',
      'http://localhost:8787',
      'http://[::1]:8787',
      'http://app.localhost:8787',
    ]) {
      expect((await echo(origin)).status, origin).toBe(200);
      expect((await echo(origin, { origin: 'http://localhost:8789' })).status, origin).toBe(200);
    }
    // An address on the network (npm run dev -- --ip 0.0.0.0): an IP cannot be rebound.
    expect((await echo('http://192.168.1.20:8787')).status).toBe(200);
  });

  it('serves a host name the developer allowed (a tunnel), and a page on it', async () => {
    const tunnelled = fixtureWith({
      AGENT_FUNCTIONS_MODE: 'development',
      FUNCTIONS_SECRET: '',
      AGENT_FUNCTIONS_DEV_HOSTS: 'dev-tunnel.example.net, .trycloudflare.com',
    });
    const post = (url: string, origin?: string) =>
      tunnelled.fetch(new Request(url, { method: 'POST', body: '{}', headers: origin ? { origin } : {} }));
    expect((await post('https://dev-tunnel.example.net/functions/tell_time')).status).toBe(200);
    expect(
      (await post('https://a-b.trycloudflare.com/functions/tell_time', 'https://a-b.trycloudflare.com')).status,
    ).toBe(200);
    expect((await post('https://evil.example/functions/tell_time')).status).toBe(403);
  });

  it('leaves production alone: the platform calls by the Worker’s own name, keyed', async () => {
    const prod = fixtureWith({ AGENT_FUNCTIONS_MODE: 'production' });
    const res = await prod.fetch(
      new Request('https://fn.example/functions', { headers: { origin: 'https://x.example' } }),
    );
    expect(res.status).toBe(401);
  });
});
