// The console lists the approvals waiting for a person and decides them with its buttons, through
// the Worker's development-only desk (GET and POST /approvals, src/approval/page.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningConsole, startConsole } from '../../dev/console/server.ts';
import { createWorkerLog } from '../../dev/workerLog.ts';

let worker: Server;
let consoleServer: RunningConsole;
const decisions: unknown[] = [];
const workerLog = createWorkerLog();
let requests = 0;
const pending = [
  { id: 'approval-1', code: 'K7QM', name: 'grant_credit', ask: 'Refund €120.00 on order 10452?', expiresAt: 0 },
];

beforeAll(async () => {
  // A stand-in Worker serving the dev desk.
  worker = createServer(async (request, response) => {
    requests++;
    let body = '';
    for await (const chunk of request) body += chunk;
    response.writeHead(request.url === '/approvals' ? 200 : 404, { 'content-type': 'application/json' });
    if (request.url !== '/approvals') return response.end('{}');
    if (request.method === 'POST') {
      decisions.push(JSON.parse(body));
      pending.length = 0;
      return response.end(JSON.stringify({ outcome: 'decided', state: 'approved' }));
    }
    response.end(JSON.stringify({ approvals: pending }));
  });
  await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
  consoleServer = await startConsole({
    port: 0,
    functions: async () => [{ name: 'grant_credit', registered: null, jsonSchema: {} }],
    urlOf: async (name) => `${base}/functions/${name}?key=k`,
    workerLog: workerLog.lines,
  });
});
afterAll(async () => {
  await consoleServer.close();
  await new Promise<void>((resolve) => worker.close(() => resolve()));
});

describe('the console and approvals', () => {
  it('asks the Worker nothing until its log shows an approval asked', async () => {
    expect(await (await fetch(new URL('/api/approvals', consoleServer.url))).json()).toEqual({ approvals: [] });
    expect(requests).toBe(0);
    workerLog.feed(`${JSON.stringify({ level: 'info', event: 'approval_asked', requestId: 'rq_1' })}\n`);
  });

  it('lists the pending approvals, and approves one by its code', async () => {
    const listed = await (await fetch(new URL('/api/approvals', consoleServer.url))).json();
    expect(listed).toEqual({
      approvals: [expect.objectContaining({ code: 'K7QM', ask: 'Refund €120.00 on order 10452?' })],
    });
    const decided = await fetch(new URL('/api/approvals', consoleServer.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'K7QM', decision: 'approve' }),
    });
    expect(await decided.json()).toEqual({ outcome: 'decided', state: 'approved' });
    expect(decisions).toEqual([{ code: 'K7QM', decision: 'approve' }]);
    expect(await (await fetch(new URL('/api/approvals', consoleServer.url))).json()).toEqual({ approvals: [] });
  });

  it('shows the list above the activity, with approve and deny buttons', async () => {
    const page = await (await fetch(consoleServer.url)).text();
    expect(page).toContain('<div id="approvals"></div>');
    expect(page).toContain("'Waiting for approval'");
    expect(page).toContain("decide('deny')");
  });
});

describe('the console and approvals of several accounts, the first not named "default"', () => {
  let desk: Server;
  let several: RunningConsole;
  // The Worker's desk keeps each account's approvals; without ?account= it reads "default"'s (src/approval/page.ts).
  const byAccount: Record<string, Array<Record<string, unknown>>> = {
    agency: [{ id: 'a-1', code: 'AG01', name: 'grant_credit', ask: 'Refund €120.00 for the agency?', expiresAt: 0 }],
    'client-acme': [{ id: 'c-1', code: 'AC01', name: 'grant_credit', ask: 'Refund €80.00 for Acme?', expiresAt: 0 }],
  };
  const decided: Array<{ account: string; body: unknown }> = [];
  const log = createWorkerLog();

  beforeAll(async () => {
    desk = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      const url = new URL(request.url ?? '/', 'http://worker.invalid');
      response.writeHead(url.pathname === '/approvals' ? 200 : 404, { 'content-type': 'application/json' });
      if (url.pathname !== '/approvals') return response.end('{}');
      const account = url.searchParams.get('account') ?? 'default';
      if (request.method === 'POST') {
        decided.push({ account, body: JSON.parse(body) });
        byAccount[account] = [];
        return response.end(JSON.stringify({ outcome: 'decided', state: 'denied' }));
      }
      response.end(JSON.stringify({ approvals: byAccount[account] ?? [] }));
    });
    await new Promise<void>((resolve) => desk.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(desk.address() as AddressInfo).port}`;
    several = await startConsole({
      port: 0,
      functions: async () => [{ name: 'grant_credit', registered: null, jsonSchema: {} }],
      urlOf: async (name, account) =>
        `${base}/functions/${name}?${account && account !== 'agency' ? `account=${account}&` : ''}key=k`,
      accounts: [
        { name: 'agency', url: 'http://platform.invalid', apiKey: 'agency-key' },
        { name: 'client-acme', url: 'http://platform.invalid/accounts/client-acme', apiKey: 'acme-key' },
      ],
      workerLog: log.lines,
    });
    log.feed(`${JSON.stringify({ level: 'info', event: 'approval_asked', requestId: 'rq_1' })}\n`);
  });
  afterAll(async () => {
    await several.close();
    await new Promise<void>((resolve) => desk.close(() => resolve()));
  });

  it("lists every account's approvals, each with its account", async () => {
    const listed = await (await fetch(new URL('/api/approvals', several.url))).json();
    expect(listed).toEqual({
      approvals: [
        expect.objectContaining({ code: 'AG01', account: 'agency' }),
        expect.objectContaining({ code: 'AC01', account: 'client-acme' }),
      ],
    });
  });

  it('decides one in its own account', async () => {
    const response = await fetch(new URL('/api/approvals', several.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: 'AC01', decision: 'deny', account: 'client-acme' }),
    });
    expect(await response.json()).toEqual({ outcome: 'decided', state: 'denied' });
    expect(decided).toEqual([{ account: 'client-acme', body: { code: 'AC01', decision: 'deny' } }]);
    const listed = await (await fetch(new URL('/api/approvals', several.url))).json();
    expect(listed).toEqual({ approvals: [expect.objectContaining({ code: 'AG01', account: 'agency' })] });
  });

  it('sends the account of each approval with its decision', async () => {
    const page = await (await fetch(several.url)).text();
    expect(page).toContain('account: approval.account');
  });
});
