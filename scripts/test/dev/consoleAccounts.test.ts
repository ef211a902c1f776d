// The console with several accounts (docs/local-development.md "Several accounts"): it lists them
// (names and addresses, never a key), calls a function as any account's agent through that
// account's url, and names the account of every call, delivery and message in its timeline.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformClient } from 'agent-functions/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleItem } from '../../dev/console/activity.ts';
import { type ConsoleAccount, type RunningConsole, startConsole } from '../../dev/console/server.ts';
import { createWorkerLog } from '../../dev/workerLog.ts';
import { type RunningEmulator, startEmulator } from '../../platform/emulator.ts';
import { accountPath } from '../../platform/state.ts';

let emulator: RunningEmulator;
let consoleServer: RunningConsole;
let worker: Server;
let base = '';
let accounts: ConsoleAccount[] = [];
/** The `account` of every url the stand-in Worker was called at (null: the first account's url). */
const calledAs: Array<string | null> = [];
// What wrangler dev would print of the Worker's own log lines, as dev reads them.
const workerLog = createWorkerLog();
const logLine = (fields: Record<string, unknown>) =>
  workerLog.feed(`${JSON.stringify({ level: 'info', ...fields })}\n`);
let answered = 0;

const clientOf = (name: string) => {
  const account = accounts.find((candidate) => candidate.name === name) as ConsoleAccount;
  return createPlatformClient({ baseUrl: account.url, apiKey: account.apiKey });
};
const post = (path: string, body: unknown) =>
  fetch(new URL(path, consoleServer.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const timeline = async (): Promise<ConsoleItem[]> =>
  ((await (await fetch(new URL('/api/activity', consoleServer.url))).json()) as { items: ConsoleItem[] }).items;

beforeAll(async () => {
  emulator = await startEmulator({
    port: 0,
    deliveryRetryDelayMs: 1,
    accounts: [
      { plan: 'agency', name: 'agency', apiKey: 'agency-key' },
      { plan: 'business', name: 'client-acme', apiKey: 'acme-key', basePath: accountPath('client-acme') },
    ],
  });
  accounts = emulator.accounts.map(({ name, apiKey, basePath }) => ({
    name,
    apiKey,
    url: `${emulator.url}${basePath ?? ''}`,
  }));
  // A stand-in Worker: a call acts in the account its url names, and messages the caller's contact there.
  worker = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const url = new URL(request.url ?? '/', 'http://worker.invalid');
    const account = url.pathname.startsWith('/events/')
      ? url.pathname.slice('/events/'.length)
      : url.searchParams.get('account');
    if (!url.pathname.startsWith('/events')) calledAs.push(account);
    const parsed = JSON.parse(body || '{}') as { contactId?: string; data?: { message?: { contactId?: string } } };
    const contactId = parsed.contactId ?? parsed.data?.message?.contactId;
    if (contactId) {
      await clientOf(account ?? 'agency').messages.send({
        contactId,
        channel: 'whatsapp',
        text: `from ${url.pathname}`,
      });
    }
    // As the Worker does: an id on every answer, and a log line of each call.
    const requestId = `rq_${++answered}`;
    if (!url.pathname.startsWith('/events')) {
      logLine({
        event: 'invocation',
        account: account ?? 'agency',
        function: 'book',
        requestId,
        outcome: 'ok',
        status: 200,
        durationMs: 1,
      });
    }
    response.writeHead(url.pathname.startsWith('/events') ? 202 : 200, {
      'content-type': 'application/json',
      'x-request-id': requestId,
    });
    response.end(JSON.stringify({ done: true }));
  });
  await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
  for (const account of accounts) {
    const suffix = account.name === 'agency' ? '' : `account=${account.name}&`;
    await clientOf(account.name).customFunctions.create({
      name: 'book',
      description: 'Books. Call it when the customer wants to book.',
      url: `${base}/functions/book?${suffix}key=k`,
      parameters: {},
    });
    await clientOf(account.name).webhooks.create({
      url: `${base}/events${account.name === 'agency' ? '' : `/${account.name}`}`,
      events: ['message.received'],
    });
  }
  // One customer per account, as dev's console makes: the same id in both accounts.
  const customers = new Map<string, Promise<string>>();
  const customerOf = (name: string) => {
    const made =
      customers.get(name) ??
      clientOf(name)
        .contacts.create({ name: `Customer of ${name}`, phone: '+15555550199', channel: 'whatsapp' })
        .then((contact) => contact.id);
    customers.set(name, made);
    return made;
  };
  consoleServer = await startConsole({
    port: 0,
    functions: async () => ({ functions: [] }),
    urlOf: async (name, account) =>
      `${base}/functions/${name}?${account && account !== 'agency' ? `account=${account}&` : ''}key=k`,
    accounts,
    workerLog: workerLog.lines,
    conversation: async (account) => {
      const contactId = await customerOf(account ?? 'agency');
      return { contactId, conversationId: `cv_${contactId}`, channel: 'whatsapp' };
    },
  });
});
afterAll(async () => {
  await consoleServer?.close();
  await emulator?.close();
  await new Promise((resolve) => worker?.close(resolve));
});

describe('the console with several accounts', () => {
  it('lists the accounts, the first first, with their addresses and without their keys', async () => {
    const response = await fetch(new URL('/api/accounts', consoleServer.url));
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      accounts: [
        { name: 'agency', first: true, baseUrl: emulator.url },
        { name: 'client-acme', first: false, baseUrl: `${emulator.url}/accounts/client-acme` },
      ],
    });
    expect(text).not.toContain('acme-key');
    expect(text).not.toContain('agency-key');
  });

  it("calls a function as the chosen account's agent, through that account's url, and says whose call it was", async () => {
    const asAcme = await post('/api/call/book', { arguments: {}, account: 'client-acme' });
    expect(asAcme.status).toBe(200);
    expect(await asAcme.json()).toMatchObject({ account: 'client-acme', status: 200 });
    const asFirst = await post('/api/call/book', { arguments: {} });
    expect(await asFirst.json()).toMatchObject({ account: 'agency', status: 200 });
    expect(calledAs.slice(-2)).toEqual(['client-acme', null]);
  });

  it('refuses an account the local platform does not hold, naming those it does', async () => {
    const response = await post('/api/call/book', { arguments: {}, account: 'client-nope' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toBe(
      'No account "client-nope" on the local platform: agency, client-acme.',
    );
    expect((await post('/api/call/book', { arguments: {}, account: 7 })).status).toBe(400);
  });

  it('names the account of every call, delivery and message, each message under its own account', async () => {
    // The agent of client-acme calls (the platform playing it), and its customer writes in.
    const acme = accounts[1] as ConsoleAccount;
    const [customer] = await clientOf('client-acme').contacts.list();
    await fetch(`${acme.url}/_emulator/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': acme.apiKey },
      body: JSON.stringify({ name: 'book', arguments: {}, contactId: customer?.id }),
    });
    // Clear of the call by more than the console's clock slack, so its message is the call's.
    await new Promise((resolve) => setTimeout(resolve, 20));
    await fetch(`${acme.url}/_emulator/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': acme.apiKey },
      body: JSON.stringify({ contactId: customer?.id, text: 'STOP' }),
    });
    const items = await timeline();
    const [delivery, platformCall] = items;
    expect(delivery).toMatchObject({ kind: 'delivery', account: 'client-acme', type: 'message.received' });
    expect(delivery?.kind === 'delivery' && delivery.deliveries[0]?.url).toBe(`${base}/events/client-acme`);
    expect(delivery?.kind === 'delivery' && delivery.messages.map((message) => message.text)).toEqual([
      'from /events/client-acme',
    ]);
    expect(platformCall).toMatchObject({ kind: 'call', source: 'platform', account: 'client-acme', status: 200 });
    const consoleCalls = items.filter((item) => item.kind === 'call' && item.source === 'console');
    expect(consoleCalls.map((item) => item.account)).toEqual(['agency', 'client-acme']);
    // Both customers hold the same id; each call's message is the one its own account sent.
    const [first] = await clientOf('agency').contacts.list();
    expect(first?.id).toBe(customer?.id);
    for (const item of consoleCalls) {
      if (item.kind !== 'call') throw new Error('not a call');
      expect(item.messages.map((message) => message.text)).toEqual(['from /functions/book']);
      expect(item.messages[0]?.contactName).toBe(`Customer of ${item.account}`);
    }
  });

  it('shows each call once, under the account the Worker acted in, and a call refused before one was known as such', async () => {
    // Straight to the Worker (curl): its log line says which account it acted in (src/record.ts).
    const line = (requestId: string, account: string | null | undefined, status = 200) =>
      logLine({
        event: 'invocation',
        ...(account === undefined ? {} : { account }),
        function: status === 200 ? 'book' : null,
        requestId,
        outcome: status === 200 ? 'ok' : 'refused',
        status,
        durationMs: 1,
      });
    line('rq_direct', 'agency');
    line('rq_bolt', 'client-acme');
    line('rq_unknown', null, 401);
    line('rq_unknown_old', undefined, 401);
    const items = await timeline();
    const direct = items.filter((item) => item.kind === 'call' && item.source === 'worker');
    expect(
      direct
        .map((item) => [item.kind === 'call' && item.requestId, item.account])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['rq_bolt', 'client-acme'],
      ['rq_direct', 'agency'],
      ['rq_unknown', null],
      ['rq_unknown_old', null],
    ]);
    const ids = items.flatMap((item) => (item.kind === 'call' && item.requestId ? [item.requestId] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const page = await (await fetch(consoleServer.url)).text();
    expect(page).toContain('refused: unknown account');
  });

  it("ties the Worker's handling of a delivery to the delivery of the account that took it", async () => {
    const [ada] = await clientOf('agency').contacts.list();
    const answer = (await (
      await fetch(`${emulator.url}/_emulator/inbound`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'agency-key' },
        body: JSON.stringify({ contactId: ada?.id, text: 'Hello' }),
      })
    ).json()) as { deliveries: Array<{ eventId: string }> };
    const eventId = answer.deliveries[0]?.eventId;
    // Event ids are unique within an account only: client-acme's handler logs one equal to the agency's.
    logLine({
      event: 'event_handled',
      eventType: 'message.received',
      deliveryId: `id:${eventId}`,
      account: 'client-acme',
    });
    const [latest] = await timeline();
    expect(latest).toMatchObject({ kind: 'delivery', account: 'agency', handling: [] });
    logLine({ event: 'event_handled', eventType: 'message.received', deliveryId: `id:${eventId}`, account: 'agency' });
    const [again] = await timeline();
    expect(again).toMatchObject({
      kind: 'delivery',
      account: 'agency',
      handling: [expect.objectContaining({ event: 'event_handled' })],
    });
  });
});
