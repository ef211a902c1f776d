// The OAuth surface of /mcp under attack: registration cannot be flooded, the owner secret cannot
// be guessed (nor used while weak), rotating the secrets cuts off every approved client, clients
// can be listed and revoked, scopes are checked, and the static MCP token is off unless turned on.
import { env as testEnv } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../../env.ts';
import { manifestKey, mcpKey } from '../../keys.ts';
import { fixture, fixtureWith } from '../fixture.ts';
import { SECRET } from '../helpers.ts';
import { loadMcp, MCP_IMPORT_TIMEOUT_MS } from './helpers.ts';
import {
  authorize,
  authorizeUrl,
  exchange,
  mcpStatus,
  OWNER_SECRET,
  openConsent,
  pkce,
  register,
  registration,
  sender,
  submit,
} from './oauthFlow.ts';

beforeAll(loadMcp, MCP_IMPORT_TIMEOUT_MS);

const kv = (testEnv as Env).OAUTH_KV as KVNamespace;

let addresses = 0;
/** A client address no other test used (the limits count per address). */
const fresh = (): string => `198.51.${100 + Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

/**
 * OAUTH_RATE_LIMIT as wrangler.toml sets it (5 a minute per key), counted without windows:
 * Cloudflare's binding counts in fixed 60 s windows, so a loop that crosses a window's end would
 * start over and the test would depend on the clock.
 */
const fiveAMinute = (): RateLimit => {
  const counts = new Map<string, number>();
  return {
    limit: async ({ key }: RateLimitOptions) => {
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      return { success: count <= 5 };
    },
  } as RateLimit;
};

describe('OAuth client registration', () => {
  it('is refused while no client could be approved: no owner secret, or a weak one', async () => {
    for (const ownerSecret of [undefined, 'short', 'change-me-change-me-change-me']) {
      const send = sender(fixtureWith({ MCP_OWNER_SECRET: ownerSecret }).fetch, fresh());
      const response = await registration(send);
      expect(response.status, String(ownerSecret)).toBe(503);
      expect(((await response.json()) as { error: string }).error).toBe('temporarily_unavailable');
    }
  });

  it('refuses a body over 4 KiB, and names or redirect urls beyond their bounds, storing nothing', async () => {
    const send = sender(fixture.fetch, fresh());
    const before = (await kv.list({ prefix: 'client:' })).keys.length;
    expect((await registration(send, { client_name: 'x'.repeat(8_000) })).status).toBe(413);
    expect((await registration(send, { client_name: 'x'.repeat(300) })).status).toBe(400);
    const many = Array.from({ length: 12 }, (_, i) => `http://127.0.0.1:${4000 + i}/callback`);
    expect((await registration(send, { redirect_uris: many })).status).toBe(400);
    expect((await kv.list({ prefix: 'client:' })).keys.length).toBe(before);
  });

  it('refuses a client name or url with control or bidi characters, storing nothing', async () => {
    const send = sender(fixture.fetch, fresh());
    const before = (await kv.list({ prefix: 'client:' })).keys.length;
    for (const client_name of [
      '\u001b[1A\u001b[2K\r\u001b]0;owned\u0007\u001b[8mhidden',
      'Claude\u202etxt.exe',
      'two\nlines',
    ]) {
      const response = await registration(send, { client_name });
      expect(response.status, JSON.stringify(client_name)).toBe(400);
      expect(await response.json()).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: expect.stringContaining('control'),
      });
    }
    expect((await registration(send, { client_uri: 'https://a.example/\u202e' })).status).toBe(400);
    expect((await kv.list({ prefix: 'client:' })).keys.length).toBe(before);
  });

  it('limits registrations per client address', async () => {
    const limited = fixtureWith({ OAUTH_RATE_LIMIT: fiveAMinute() });
    const send = sender(limited.fetch, fresh());
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await registration(send)).status);
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(201));
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect((await registration(sender(limited.fetch, fresh()))).status).toBe(201);
  });

  it('keeps a client that never finishes a grant for 7 days at most, not 90', async () => {
    const clientId = await register(sender(fixture.fetch, fresh()));
    const { keys } = await kv.list({ prefix: `client:${clientId}` });
    const expiresIn = (keys[0]?.expiration ?? Number.POSITIVE_INFINITY) - Date.now() / 1000;
    expect(expiresIn).toBeLessThanOrEqual(7 * 24 * 3600 + 60);
  });
});

describe('the consent page', () => {
  it('checks the consent transaction before the owner secret: a guess without one is refused unread', async () => {
    const send = sender(fixture.fetch, fresh());
    const clientId = await register(send);
    const { challenge } = await pkce();
    const path = authorizeUrl(clientId, challenge);
    const response = await submit(send, path, '', { handle: 'made-up', decision: 'approve', owner_secret: 'guess' });
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain('owner secret is wrong');
  });

  it('limits wrong guesses of the owner secret per client address, then refuses even the right one', async () => {
    const send = sender(fixtureWith({ OAUTH_RATE_LIMIT: fiveAMinute() }).fetch, fresh());
    const clientId = await register(send);
    const { challenge } = await pkce();
    const path = authorizeUrl(clientId, challenge);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const page = await openConsent(send, path);
      statuses.push(
        (
          await submit(send, path, page.cookie, {
            handle: page.handle,
            decision: 'approve',
            owner_secret: `guess-${i}`,
          })
        ).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(200));
    expect(statuses.slice(5)).toEqual(Array(5).fill(429));
    const page = await openConsent(send, path);
    const right = await submit(send, path, page.cookie, {
      handle: page.handle,
      decision: 'approve',
      owner_secret: OWNER_SECRET,
    });
    expect(right.status).toBe(429);
  });

  it('is not served while the owner secret is weak', async () => {
    const send = sender(fixtureWith({ MCP_OWNER_SECRET: 'password1' }).fetch, fresh());
    const page = await openConsent(send, `/oauth/authorize?client_id=x`);
    expect(page.status).toBe(503);
    expect(page.html).toContain('too weak');
  });

  it('shows the scopes asked for, and refuses one it does not know', async () => {
    const send = sender(fixture.fetch, fresh());
    const clientId = await register(send);
    const { challenge } = await pkce();
    const ok = await openConsent(send, authorizeUrl(clientId, challenge));
    expect(ok.html).toContain('call this Worker&#39;s functions');
    const admin = await send(authorizeUrl(clientId, challenge, 'functions admin'), { redirect: 'manual' });
    expect(admin.status).toBe(302);
    expect(new URL(admin.headers.get('location') ?? '').searchParams.get('error')).toBe('invalid_scope');
  });
});

describe('approved clients', () => {
  it('are cut off when FUNCTIONS_SECRET or MCP_OWNER_SECRET is rotated: access and refresh tokens alike', async () => {
    const send = sender(fixture.fetch, fresh());
    const { clientId, accessToken, refreshToken } = await authorize(send);
    expect(await mcpStatus(send, accessToken)).toBe(200);
    const rotatedFunctions = sender(fixtureWith({ FUNCTIONS_SECRET: 'rotated-functions-secret-6Yb1Ms3Jt' }).fetch);
    expect(await mcpStatus(rotatedFunctions, accessToken)).toBe(401);
    const rotatedOwner = sender(fixtureWith({ MCP_OWNER_SECRET: 'rotated-owner-secret-1Ms6Yb3Jt8Wn' }).fetch);
    expect(await mcpStatus(rotatedOwner, accessToken)).toBe(401);
    const refreshed = await exchange(rotatedOwner, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    });
    if (refreshed.status === 200) {
      const { access_token } = (await refreshed.json()) as { access_token: string };
      expect(await mcpStatus(rotatedOwner, access_token)).toBe(401);
    } else expect(refreshed.status).toBe(400);
  });

  it('are listed and revoked with the manifest key, and a revoked one is refused at once', async () => {
    const send = sender(fixture.fetch, fresh());
    const { clientId, accessToken } = await authorize(send);
    const admin = { authorization: `Bearer ${await manifestKey(SECRET)}` };
    expect((await send('/oauth/clients')).status).toBe(401);
    const listed = (await (await send('/oauth/clients', { headers: admin })).json()) as {
      clients: Array<{ clientId: string; clientName?: string; grants: number }>;
    };
    expect(listed.clients.find((c) => c.clientId === clientId)).toMatchObject({ grants: 1 });
    expect((await send(`/oauth/clients/${clientId}`, { method: 'DELETE' })).status).toBe(401);
    const revoked = await send(`/oauth/clients/${clientId}`, { method: 'DELETE', headers: admin });
    expect(revoked.status).toBe(200);
    expect(await mcpStatus(send, accessToken)).toBe(401);
  });
});

describe('the static MCP token', () => {
  it('opens /mcp only when the operator turns it on (MCP_STATIC_TOKEN = "on")', async () => {
    const token = await mcpKey(SECRET);
    expect(await mcpStatus(sender(fixtureWith({ MCP_STATIC_TOKEN: undefined }).fetch), token)).toBe(401);
    expect(await mcpStatus(sender(fixtureWith({ MCP_STATIC_TOKEN: 'on' }).fetch), token)).toBe(200);
  });
});
