// The whole OAuth 2.1 flow of the MCP authorization spec against the Worker in workerd: the 401
// pointing at the protected resource metadata, the authorization server metadata, dynamic client
// registration, the consent page gated by the owner secret, the authorization code with PKCE,
// the token, and a tools/call with that token through the official SDK client.
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { toBase64Url } from '../../keys.ts';
import { send } from '../fixture.ts';
import { ORIGIN } from '../helpers.ts';
import { connect, loadMcp, MCP_IMPORT_TIMEOUT_MS } from './helpers.ts';

const REDIRECT = 'http://127.0.0.1:33418/callback';
const RESOURCE = `${ORIGIN}/mcp`;
const OWNER_SECRET = 'owner-7Qv2Lx9Pz4Rk8Wn3Jt6Yb1Ms';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

const pkce = async () => {
  const verifier = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = toBase64Url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  return { verifier, challenge };
};

const register = async (clientName: string) => {
  const response = await send('/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: clientName, token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
};

const authorizeUrl = (clientId: string, challenge: string) =>
  `/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    scope: 'functions',
    resource: RESOURCE,
  })}`;

/** Opens the consent page; returns its html, the form's handle and the cookie binding it to this browser. */
const openConsent = async (path: string) => {
  const response = await send(path);
  expect(response.status).toBe(200);
  const html = await response.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { html, handle, cookie };
};

const submit = (path: string, cookie: string, fields: Record<string, string>) =>
  send(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

const exchange = (clientId: string, code: string, verifier: string) =>
  send('/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: RESOURCE,
    }).toString(),
  });

beforeAll(loadMcp, MCP_IMPORT_TIMEOUT_MS);

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('OAuth 2.1 on /mcp', () => {
  it('runs from the 401 to a tools/call: metadata, registration, consent, code with PKCE, token', async () => {
    // 1. No token: 401 naming the protected resource metadata.
    const refused = await send('/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1] ?? '';
    expect(metadataUrl).toBe(`${ORIGIN}/.well-known/oauth-protected-resource/mcp`);

    // 2. Protected resource metadata (RFC 9728) names the resource and its authorization server.
    const resource = (await (await send(new URL(metadataUrl).pathname)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: RESOURCE, authorization_servers: [ORIGIN] });

    // 3. Authorization server metadata (RFC 8414): endpoints, PKCE S256, registration.
    const server = (await (await send('/.well-known/oauth-authorization-server')).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/oauth/authorize`,
      token_endpoint: `${ORIGIN}/oauth/token`,
      registration_endpoint: `${ORIGIN}/oauth/register`,
    });
    expect(server.code_challenge_methods_supported).toContain('S256');

    // 4. Dynamic client registration (RFC 7591); the name is the client's choice, so it is escaped.
    const clientId = await register('Test <b>client</b>');

    // 5. The consent page shows who asks and where the code goes, and asks for the owner secret.
    const { verifier, challenge: codeChallenge } = await pkce();
    const path = authorizeUrl(clientId, codeChallenge);
    const first = await openConsent(path);
    expect(first.html).toContain('Test &#60;b&#62;client&#60;/b&#62;');
    expect(first.html).not.toContain('<b>client</b>');
    expect(first.html).toContain('127.0.0.1');
    expect(first.html).toContain('name="owner_secret"');

    // 6. A wrong owner secret approves nothing.
    const wrong = await submit(path, first.cookie, {
      handle: first.handle,
      decision: 'approve',
      owner_secret: 'guess',
    });
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).toContain('That owner secret is wrong');

    // 7. The right one redirects to the client with a code and its state.
    const second = await openConsent(path);
    const approved = await submit(path, second.cookie, {
      handle: second.handle,
      decision: 'approve',
      owner_secret: OWNER_SECRET,
    });
    expect(approved.status).toBe(302);
    const location = new URL(approved.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('state-123');
    const code = location.searchParams.get('code') ?? '';
    expect(code).not.toBe('');

    // 8. The token endpoint checks the PKCE verifier, then issues a bearer token.
    const tokenResponse = await exchange(clientId, code, verifier);
    expect(tokenResponse.status).toBe(200);
    const token = (await tokenResponse.json()) as { access_token: string; token_type: string };
    expect(token.token_type.toLowerCase()).toBe('bearer');

    // 9. The token opens /mcp: the SDK client calls a function.
    client = await connect(token.access_token);
    const result = await client.callTool({ name: 'quote_plan', arguments: { plan: 'starter', seats: 2 } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ plan: 'starter', seats: 2 });
  });

  it('refuses a code exchanged with the wrong PKCE verifier', async () => {
    const clientId = await register('PKCE client');
    const { challenge } = await pkce();
    const path = authorizeUrl(clientId, challenge);
    const page = await openConsent(path);
    const approved = await submit(path, page.cookie, {
      handle: page.handle,
      decision: 'approve',
      owner_secret: OWNER_SECRET,
    });
    const code = new URL(approved.headers.get('location') ?? '').searchParams.get('code') ?? '';
    const other = await pkce();
    const response = await exchange(clientId, code, other.verifier);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe('invalid_grant');
  });

  it('sends a denial back to the client as access_denied', async () => {
    const clientId = await register('Denied client');
    const { challenge } = await pkce();
    const path = authorizeUrl(clientId, challenge);
    const page = await openConsent(path);
    const denied = await submit(path, page.cookie, { handle: page.handle, decision: 'deny' });
    expect(denied.status).toBe(302);
    expect(new URL(denied.headers.get('location') ?? '').searchParams.get('error')).toBe('access_denied');
  });

  it('refuses an invented bearer token with the same challenge', async () => {
    const response = await send('/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: 'Bearer not-a-token',
      },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/resource_metadata=/);
  });
});
