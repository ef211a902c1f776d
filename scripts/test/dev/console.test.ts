// The console shows the platform's side beside its own calls: calls the platform made as the agent,
// event deliveries and what each webhook answered, and the messages sent, each beside the call or
// delivery that caused it (during it, or later about the same contact; a deferred call's follow-up
// under that call, as the Worker's log ties it); and a broken definition as the problem it is, not
// as "No functions".
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformClient } from 'agent-functions/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityItem } from '../../dev/console/activity.ts';
import { type RunningConsole, startConsole } from '../../dev/console/server.ts';
import { createWorkerLog } from '../../dev/workerLog.ts';
import { type RunningEmulator, startEmulator } from '../../platform/emulator.ts';

let emulator: RunningEmulator;
let consoleServer: RunningConsole;
let worker: Server;
let base = '';
let ada = '';
let grace = '';
let agencyKey = '';
// What wrangler dev would print of the Worker's own log lines, as dev reads them.
const workerLog = createWorkerLog();
let answered = 0;
const logLine = (fields: Record<string, unknown>) =>
  workerLog.feed(`${JSON.stringify({ level: 'info', ...fields })}\n`);

const client = () => createPlatformClient({ baseUrl: emulator.url, apiKey: agencyKey });

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, deliveryRetryDelayMs: 1 });
  agencyKey = emulator.accounts.find((account) => account.plan === 'agency')?.apiKey ?? '';
  ada = (await client().contacts.create({ name: 'Ada', phone: '+15550100', channel: 'whatsapp' })).id;
  grace = (await client().contacts.create({ name: 'Grace', phone: '+15550101', channel: 'whatsapp' })).id;
  // A stand-in Worker: its function and its events endpoint each send the contact a message.
  worker = createServer(async (request, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const parsed = JSON.parse(body || '{}') as { contactId?: string; data?: { message?: { contactId?: string } } };
    const contactId = parsed.contactId ?? parsed.data?.message?.contactId ?? ada;
    const path = request.url?.split('?')[0] ?? '';
    await client().messages.send({ contactId, channel: 'whatsapp', text: `sent by ${path}` });
    // As the Worker does: an id on every answer, and a log line of each call and each delivery handled.
    const requestId = `rq_${++answered}`;
    if (path === '/events') {
      const event = JSON.parse(body) as { id: string; type: string };
      logLine({ event: 'event_handled', eventType: event.type, deliveryId: `id:${event.id}` });
    } else {
      logLine({
        event: 'invocation',
        function: path.split('/').pop(),
        requestId,
        outcome: 'ok',
        status: 200,
        durationMs: 1,
      });
    }
    response.writeHead(path === '/events' ? 202 : 200, {
      'content-type': 'application/json',
      'x-request-id': requestId,
    });
    response.end(JSON.stringify(path === '/events' ? { queued: true } : { summary: 'Booked.' }));
  });
  await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
  await client().customFunctions.create({
    name: 'book',
    description: 'Books. Call it when the customer wants to book.',
    url: `${base}/functions/book?key=k`,
    parameters: {},
  });
  await client().webhooks.create({ url: `${base}/events`, events: ['message.received'] });
  consoleServer = await startConsole({
    port: 0,
    functions: async () => ({
      functions: [],
      problem: 'The Worker answered 500 to GET /functions: functions/zz_union.ts: "id" is a union.',
    }),
    urlOf: async (name) => `${base}/functions/${name}?key=k`,
    platform: { url: emulator.url, apiKey: agencyKey },
    workerLog: workerLog.lines,
  });
});
afterAll(async () => {
  await consoleServer?.close();
  await emulator?.close();
  await new Promise((resolve) => worker?.close(resolve));
});

const activity = async (): Promise<ActivityItem[]> =>
  ((await (await fetch(new URL('/api/activity', consoleServer.url))).json()) as { items: ActivityItem[] }).items;

describe('the console shows what the platform did', () => {
  it("puts the message a function sent during the console's call beside that call", async () => {
    const response = await fetch(new URL('/api/call/book', consoleServer.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { contactId: ada } }),
    });
    expect(response.status).toBe(200);
    const [latest] = await activity();
    expect(latest).toMatchObject({ kind: 'call', source: 'console', name: 'book', status: 200 });
    expect(latest?.kind === 'call' && latest.messages.map((m) => m.text)).toEqual(['sent by /functions/book']);
  });

  it('shows a call the platform made as the agent (npm run platform -- call), with its message', async () => {
    await fetch(`${emulator.url}/_emulator/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': agencyKey },
      // The conversation's contact, which the platform adds beside the arguments (contract §9).
      body: JSON.stringify({ name: 'book', arguments: {}, contactId: grace }),
    });
    const [latest] = await activity();
    expect(latest).toMatchObject({ kind: 'call', source: 'platform', name: 'book', status: 200 });
    expect(latest?.kind === 'call' && latest.messages).toEqual([
      expect.objectContaining({ contactId: grace, text: 'sent by /functions/book', direction: 'outbound' }),
    ]);
  });

  it('shows a delivery: the customer message that caused it, what the webhook answered, what the handler sent', async () => {
    // A customer of their own: the message the test before sent Grace may be stamped within the
    // console's clock slack of this delivery, and would then count as sent during it.
    const lin = (await client().contacts.create({ name: 'Lin', phone: '+15550102', channel: 'whatsapp' })).id;
    await fetch(`${emulator.url}/_emulator/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': agencyKey },
      body: JSON.stringify({ contactId: lin, text: 'STOP' }),
    });
    const [latest] = await activity();
    expect(latest).toMatchObject({ kind: 'delivery', type: 'message.received', contactId: lin });
    if (latest?.kind !== 'delivery') throw new Error('not a delivery');
    expect(latest.trigger).toMatchObject({ text: 'STOP', direction: 'inbound' });
    expect(latest.deliveries[0]).toMatchObject({ url: `${base}/events`, status: 202, delivered: true });
    expect(latest.messages.map((m) => m.text)).toEqual(['sent by /events']);
    // How the Worker's handler took it, from the Worker's own log line.
    expect(latest.handling).toEqual([expect.objectContaining({ event: 'event_handled' })]);
  });

  it("shows a call made straight to the Worker (curl, an MCP client), from the Worker's own log line", async () => {
    logLine({
      event: 'invocation',
      function: 'book',
      requestId: 'rq_direct',
      outcome: 'refused',
      status: 422,
      durationMs: 2,
    });
    const [latest] = await activity();
    expect(latest).toMatchObject({ kind: 'call', source: 'worker', name: 'book', status: 422, requestId: 'rq_direct' });
  });

  it('shows each call once: the Worker’s line of a console or platform call is that call', async () => {
    await fetch(new URL('/api/call/book', consoleServer.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { contactId: ada } }),
    });
    await fetch(`${emulator.url}/_emulator/call`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': agencyKey },
      body: JSON.stringify({ name: 'book', arguments: {}, contactId: grace }),
    });
    const calls = (await activity()).filter((item) => item.kind === 'call');
    const ids = calls.map((item) => (item.kind === 'call' ? item.requestId : undefined));
    expect(calls.slice(0, 2).map((item) => (item.kind === 'call' ? item.source : ''))).toEqual(['platform', 'console']);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts a later message about the same contact (a follow-up) beside the call, marked as later', async () => {
    await fetch(new URL('/api/call/book', consoleServer.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { contactId: ada } }),
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    await client().messages.send({ contactId: ada, channel: 'whatsapp', text: 'Reminder: tomorrow at 10.' });
    const [latest] = await activity();
    if (latest?.kind !== 'call') throw new Error('not a call');
    const followUp = latest.messages.find((m) => m.text === 'Reminder: tomorrow at 10.');
    expect(followUp?.afterMs).toBeGreaterThanOrEqual(50);
  });

  it("puts a deferred call's follow-up under that call, not under a call about the same contact made meanwhile", async () => {
    const callBook = async () =>
      (await (
        await fetch(new URL('/api/call/book', consoleServer.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ arguments: { contactId: ada } }),
        })
      ).json()) as { requestId: string };
    // Clear of the last test's message by more than the clock slack.
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The deferred call: the Worker logs its deferral under the call's request id ...
    const deferred = await callBook();
    logLine({ event: 'call_deferred', function: 'book', requestId: deferred.requestId, answerWithinMs: 2500 });
    // ... another call about the same contact is answered meanwhile (apart by more than the clock slack) ...
    await new Promise((resolve) => setTimeout(resolve, 20));
    const meanwhile = await callBook();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // ... and then the deferred work sends its follow-up, and logs it under the first call's id.
    await client().messages.send({ contactId: ada, channel: 'whatsapp', text: 'Your booking is confirmed.' });
    logLine({ event: 'follow_up_sent', function: 'book', requestId: deferred.requestId, deferred: 'call-x' });
    const calls = (await activity()).filter((item) => item.kind === 'call');
    const first = calls.find((item) => item.kind === 'call' && item.requestId === deferred.requestId);
    const second = calls.find((item) => item.kind === 'call' && item.requestId === meanwhile.requestId);
    if (first?.kind !== 'call' || second?.kind !== 'call') throw new Error('calls missing');
    expect(first.messages.map((m) => m.text)).toEqual(['sent by /functions/book', 'Your booking is confirmed.']);
    expect(first.messages[1]).toMatchObject({ contactId: ada, contactName: 'Ada' });
    expect(first.messages[1]?.afterMs).toBeGreaterThan(0);
    expect(first.deferred?.map((step) => step.event)).toEqual(['call_deferred', 'follow_up_sent']);
    expect(second.messages.map((m) => m.text)).toEqual(['sent by /functions/book']);
    expect(second.deferred).toBeUndefined();
  });

  it('lists a message with no cause on its own', async () => {
    const lonely = (await client().contacts.create({ name: 'Lin', phone: '+15550102', channel: 'whatsapp' })).id;
    await client().messages.send({ contactId: lonely, channel: 'whatsapp', text: 'Hello from a script.' });
    const [latest] = await activity();
    expect(latest).toMatchObject({ kind: 'message', message: { contactId: lonely, text: 'Hello from a script.' } });
  });

  it('says why no function is listed when one definition breaks the manifest', async () => {
    const listing = (await (await fetch(new URL('/api/functions', consoleServer.url))).json()) as {
      functions: unknown[];
      problem?: string;
    };
    expect(listing.functions).toEqual([]);
    expect(listing.problem).toContain('functions/zz_union.ts');
    const page = await (await fetch(consoleServer.url)).text();
    expect(page).toContain('No function can be shown until this is fixed');
    expect(page).toContain("id: 'toc'");
  });
});

describe("the console's conversation", () => {
  let own: RunningConsole;
  beforeAll(async () => {
    own = await startConsole({
      port: 0,
      functions: async () => [],
      urlOf: async (name) => `${base}/functions/${name}?key=k`,
      platform: { url: emulator.url, apiKey: agencyKey },
      workerLog: workerLog.lines,
      conversation: async () => ({ contactId: grace, conversationId: `cv_${grace}`, channel: 'whatsapp' }),
    });
  });
  afterAll(async () => own?.close());

  const post = async (path: string, body: unknown) =>
    (await fetch(new URL(path, own.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then((response) => response.json())) as Record<string, unknown>;

  it('marks an answer that came from a repeat (the Worker logged call_repeated), and shows the conversation', async () => {
    const first = (await post('/api/call/book', { arguments: {} })) as { requestId: string };
    const repeat = (await post('/api/call/book', { arguments: {} })) as { requestId: string };
    logLine({ event: 'call_repeated', function: 'book', requestId: repeat.requestId });
    const items = ((await (await fetch(new URL('/api/activity', own.url))).json()) as { items: ActivityItem[] }).items;
    const shown = (id: string) => items.find((item) => item.kind === 'call' && item.requestId === id);
    expect(shown(repeat.requestId)).toMatchObject({ repeated: true, conversationId: `cv_${grace}` });
    expect(shown(first.requestId)).not.toHaveProperty('repeated');
    expect(shown(first.requestId)).toMatchObject({ conversationId: `cv_${grace}` });
  });

  it('starts a new conversation for the same customer, whose calls carry the new id', async () => {
    const before = (await (await fetch(new URL('/api/conversation', own.url))).json()) as {
      conversation: { conversationId: string };
    };
    expect(before.conversation.conversationId).toBe(`cv_${grace}`);
    const after = (await post('/api/conversation', {})) as {
      conversation: { conversationId: string; contactId: string };
    };
    expect(after.conversation).toMatchObject({ contactId: grace, conversationId: `cv_${grace}-2` });
    const call = (await post('/api/call/book', { arguments: {} })) as { conversation: { conversationId: string } };
    expect(call.conversation.conversationId).toBe(`cv_${grace}-2`);
  });

  it('has the page say so: a repeat marked, the conversation named, a button for a new one', async () => {
    const page = await (await fetch(own.url)).text();
    expect(page).toContain('id="new-conversation"');
    expect(page).toContain("'/api/conversation'");
    expect(page).toContain('repeat: this answer is the stored one');
    expect(page).not.toContain('its answer is in the output of npm run dev');
  });
});

describe("the console's port", () => {
  it('says so when its port is taken and it listens on another, as the Worker and the platform do', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as AddressInfo).port;
    const moved = await startConsole({ port: taken, functions: async () => [], urlOf: async () => undefined });
    try {
      expect(moved.url).not.toContain(`:${taken}/`);
      expect(moved.note).toBe(
        `port ${taken} is taken by another program, so the console listens on ${moved.url.replace(/\/$/, '')}.`,
      );
    } finally {
      await moved.close();
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
