// The dev console calls functions with their keys and shows a log of customers' details: a web
// page on another site must not make it call (a cross-site form post is text/plain with that
// site's Origin), nor read it through a rebound host name. Its own page, on its own origin,
// sending JSON, is served.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningConsole, startConsole } from '../../dev/console/server.ts';
import { rawRequest } from '../rawHttp.ts';

let worker: Server;
let workerUrl: string;
const calls: string[] = [];
let console_: RunningConsole;

beforeAll(async () => {
  worker = createServer((request, response) => {
    calls.push(request.url ?? '');
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
  workerUrl = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
  console_ = await startConsole({
    port: 0,
    functions: async () => [{ name: 'notify_team', registered: null, jsonSchema: {} }],
    urlOf: async (name) => `${workerUrl}/functions/${name}?key=secret-key`,
  });
});
afterAll(async () => {
  await console_.close();
  await new Promise((resolve) => worker.close(resolve));
});

const consoleUrl = () => console_.url.replace(/\/$/, '');
const callPath = () => `${consoleUrl()}/api/call/notify_team`;

describe('the dev console', () => {
  it('refuses a cross-site form post, and calls nothing', async () => {
    const before = calls.length;
    const answer = await rawRequest(callPath(), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
      body: '{"arguments":{"summary":"x"}}',
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: expect.stringContaining('https://evil.example') });
    expect(calls.length).toBe(before);
  });

  it('refuses a body that is not JSON even from its own origin, and calls nothing', async () => {
    const before = calls.length;
    const answer = await rawRequest(callPath(), {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: consoleUrl() },
      body: '{"arguments":{}}',
    });
    expect(answer.status).toBe(415);
    expect(calls.length).toBe(before);
  });

  it('refuses its call log to a rebound host name', async () => {
    const port = new URL(console_.url).port;
    const answer = await rawRequest(`${consoleUrl()}/api/calls`, { headers: { host: `rebound.evil.example:${port}` } });
    expect(answer.status).toBe(403);
    expect(answer.body).not.toContain('notify_team');
  });

  it('serves its own page: JSON from its own origin, by localhost too', async () => {
    const before = calls.length;
    const answer = await rawRequest(callPath(), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: consoleUrl() },
      body: '{"arguments":{}}',
    });
    expect(answer.status).toBe(200);
    expect(calls.length).toBe(before + 1);
    const port = new URL(console_.url).port;
    expect((await rawRequest(`${consoleUrl()}/api/calls`, { headers: { host: `localhost:${port}` } })).status).toBe(
      200,
    );
  });
});
