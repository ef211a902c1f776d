// The steps of the OAuth 2.1 flow of /mcp, as a client and its owner take them, through any
// Worker fetch (the fixture, or the fixture with other settings).
import { expect } from 'vitest';
import { toBase64Url } from '../../keys.ts';
import { ORIGIN } from '../helpers.ts';

export const REDIRECT = 'http://127.0.0.1:33418/callback';
export const RESOURCE = `${ORIGIN}/mcp`;
/** MCP_OWNER_SECRET of the test env (src/vitest.config.ts). */
export const OWNER_SECRET = 'owner-7Qv2Lx9Pz4Rk8Wn3Jt6Yb1Ms';

type Fetch = (request: Request) => Promise<Response>;

/** `path` of the Worker through `fetch`, from the client address `ip`. */
export const sender =
  (fetch: Fetch, ip = '203.0.113.7') =>
  (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cf-connecting-ip', ip);
    return fetch(new Request(`${ORIGIN}${path}`, { ...init, headers }));
  };

export type Send = ReturnType<typeof sender>;

export const pkce = async () => {
  const verifier = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = toBase64Url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge };
};

/** Registers a client (RFC 7591); the raw answer. */
export const registration = (send: Send, metadata: Record<string, unknown> = {}) =>
  send('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      redirect_uris: [REDIRECT],
      client_name: 'Client',
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  });

/** Registers a client and returns its id. */
export const register = async (send: Send, clientName = 'Client') => {
  const response = await registration(send, { client_name: clientName });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
};

export const authorizeUrl = (clientId: string, challenge: string, scope = 'functions') =>
  `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    scope,
    resource: RESOURCE,
  })}`;

/** Opens the consent page; returns its status, html, the form's handle and the cookie binding it to this browser. */
export const openConsent = async (send: Send, path: string) => {
  const response = await send(path);
  const html = await response.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { status: response.status, html, handle, cookie };
};

export const submit = (send: Send, path: string, cookie: string, fields: Record<string, string>) =>
  send(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

export const exchange = (send: Send, fields: Record<string, string>) =>
  send('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ resource: RESOURCE, ...fields }).toString(),
  });

/** The whole flow: a registered client, the owner's approval, and the tokens. */
export const authorize = async (send: Send) => {
  const clientId = await register(send);
  const { verifier, challenge } = await pkce();
  const path = authorizeUrl(clientId, challenge);
  const page = await openConsent(send, path);
  const approved = await submit(send, path, page.cookie, {
    handle: page.handle,
    decision: 'approve',
    owner_secret: OWNER_SECRET,
  });
  expect(approved.status).toBe(302);
  const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const tokens = await exchange(send, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    client_id: clientId,
    code_verifier: verifier,
  });
  expect(tokens.status).toBe(200);
  const { access_token, refresh_token } = (await tokens.json()) as { access_token: string; refresh_token: string };
  return { clientId, accessToken: access_token, refreshToken: refresh_token };
};

export const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

/** An initialize request to /mcp with `token`; the status tells whether the token opens it. */
export const mcpStatus = async (send: Send, token: string) =>
  (
    await send('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(initialize),
    })
  ).status;
