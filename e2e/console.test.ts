// The console page in a real headless browser, against the real local platform and a stand-in
// Worker (no wrangler: this is about what the page shows). The platform's side appears in the
// activity without a reload, each message beside its cause; many functions get a table of contents;
// a broken definition shows as the problem it is; the health view links a failing call to its entry.
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createPlatformClient } from 'agent-functions/platform';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleFunction, type RunningConsole, startConsole } from '../scripts/dev/console/server.ts';
import { createRecordStore, recordOf } from '../scripts/dev/records.ts';
import { createWorkerLog } from '../scripts/dev/workerLog.ts';
import { type RunningEmulator, startEmulator } from '../scripts/platform/emulator.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { launchBrowser, openConsole } from './browser.ts';

let emulator: RunningEmulator;
let worker: Server;
let browser: Browser;
const consoles: RunningConsole[] = [];
let base = '';
let agencyKey = '';
let ada = '';

const NAMES = ['book', 'cancel', 'lookup', 'quote'];
const fn = (name: string): ConsoleFunction => ({
  name,
  registered: { description: `Does ${name}.`, parameters: {}, url: `${base}/functions/${name}?key=***` },
  jsonSchema: { type: 'object', properties: { contactId: { type: 'string', description: 'Who' } } },
});

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, deliveryRetryDelayMs: 1 });
  agencyKey = emulator.accounts.find((account) => account.plan === 'agency')?.apiKey ?? '';
  const client = createPlatformClient({ baseUrl: emulator.url, apiKey: agencyKey });
  ada = (await client.contacts.create({ name: 'Ada', phone: '+15550100', channel: 'whatsapp' })).id;
  worker = createServer(async (request, response) => {
    for await (const _chunk of request) {
      // Read to the end; the stand-in answers the same whatever was sent.
    }
    const path = request.url?.split('?')[0] ?? '';
    if (path === '/events')
      await client.messages.send({ contactId: ada, channel: 'whatsapp', text: 'You are unsubscribed.' });
    else await client.messages.send({ contactId: ada, channel: 'whatsapp', text: `Confirmed by ${path}.` });
    response.writeHead(path === '/events' ? 202 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ summary: 'Done.' }));
  });
  await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
  await client.webhooks.create({ url: `${base}/events`, events: ['message.received'] });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const running of consoles) await running.close();
  await emulator?.close();
  await new Promise((resolve) => worker?.close(resolve));
});

const open = async (
  functions: () => Promise<ConsoleFunction[] | { functions: ConsoleFunction[]; problem: string }>,
) => {
  const running = await startConsole({
    port: 0,
    functions,
    urlOf: async (name) => `${base}/functions/${name}?key=k`,
    platform: { url: emulator.url, apiKey: agencyKey },
  });
  consoles.push(running);
  return openConsole(browser, running.url);
};

describe('the console page', () => {
  it("lists the functions in a table of contents, and shows the platform's side beside each call", async () => {
    const page = await open(async () => NAMES.map(fn));
    expect(await page.locator('#toc a').allTextContents()).toEqual(NAMES);
    expect(await page.locator('#toc a').first().getAttribute('href')).toBe('#fn-book');

    const book = page.locator('section.fn[data-name="book"]');
    await book.locator('[data-arg="contactId"]').fill(ada);
    await book.getByRole('button', { name: 'Call book' }).click();
    await book.locator('.result[data-status="200"]').waitFor();
    const call = page.locator('#calls tr[data-kind="call"][data-source="console"]').first();
    await expect.poll(() => call.locator('.sent').textContent()).toContain('Confirmed by /functions/book.');

    // A customer writes in elsewhere (npm run platform -- inbound): it appears without a reload.
    await fetch(`${emulator.url}/_emulator/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': agencyKey },
      body: JSON.stringify({ contactId: ada, text: 'STOP' }),
    });
    const delivery = page.locator('#calls tr[data-kind="delivery"]').first();
    await delivery.waitFor({ timeout: 10_000 });
    const text = (await delivery.textContent()) ?? '';
    expect(text).toContain('message.received');
    expect(text).toContain('STOP');
    expect(text).toContain(`POST ${base}/events answered 202 after 1 attempt(s)`);
    expect(text).toContain('You are unsubscribed.');
    mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(PROJECT_ROOT, 'test-results', 'console-activity.png') });
  });

  it('shows a broken definition as the problem, not as "No functions"', async () => {
    const page = await open(async () => ({
      functions: [],
      problem: 'The Worker answered 500 to GET /functions: functions/zz_union.ts: "id" is a union.',
    }));
    expect(await page.locator('#problem').textContent()).toContain('functions/zz_union.ts');
    expect(await page.locator('#empty').textContent()).toContain('No function can be shown until this is fixed');
    expect(await page.locator('#functions').textContent()).not.toContain('No functions: add a file');
  });

  it("calls as the account chosen in the picker, through that account's url, and names the account in Activity", async () => {
    const asked: Array<string | undefined> = [];
    const running = await startConsole({
      port: 0,
      functions: async () => [{ ...fn('book'), registeredOn: ['agency', 'client-acme'] }],
      urlOf: async (name, account) => {
        asked.push(account);
        return `${base}/functions/${name}?${account && account !== 'agency' ? `account=${account}&` : ''}key=k`;
      },
      // Two accounts told apart by key on one local platform, as npm run dev plays them.
      accounts: [
        { name: 'agency', url: emulator.url, apiKey: agencyKey },
        {
          name: 'client-acme',
          url: emulator.url,
          apiKey: emulator.accounts.find((account) => account.plan === 'business')?.apiKey ?? '',
        },
      ],
    });
    consoles.push(running);
    const page = await openConsole(browser, running.url);
    expect(await page.locator('#account option').allTextContents()).toEqual(['agency (first)', 'client-acme']);
    expect(await page.locator('.registered-on').textContent()).toBe('agency, client-acme');
    await page.locator('#account').selectOption('client-acme');
    const book = page.locator('section.fn[data-name="book"]');
    await book.getByRole('button', { name: 'Call book' }).click();
    await book.locator('.result[data-status="200"]').waitFor();
    expect(await book.locator('.result').textContent()).toContain('as the agent of client-acme');
    expect(asked.at(-1)).toBe('client-acme');
    const call = page.locator('#calls tr[data-kind="call"][data-source="console"]').first();
    await call.waitFor();
    expect(await call.getAttribute('data-account')).toBe('client-acme');
    expect(await call.locator('.account').textContent()).toBe('client-acme');
  });

  it('shows the health of each account and function, live, and links a failing call to its activity entry', async () => {
    const records = createRecordStore();
    const workerLog = createWorkerLog(500, (fields, at) => {
      const read = recordOf(fields);
      if (read) records.add(read, at);
    });
    const invocation = (fields: Record<string, unknown>) =>
      workerLog.feed(
        `${JSON.stringify({ level: 'info', event: 'invocation', transport: 'http', kind: 'call', ...fields })}\n`,
      );
    invocation({ account: 'bistro', function: 'book', requestId: 'rq_ok', status: 200, outcome: 'ok', durationMs: 12 });
    const running = await startConsole({
      port: 0,
      functions: async () => [fn('book')],
      urlOf: async (name) => `${base}/functions/${name}?key=k`,
      platform: { url: emulator.url, apiKey: agencyKey },
      workerLog: workerLog.lines,
      records: records.records,
    });
    consoles.push(running);
    const page = await openConsole(browser, running.url);
    const bistro = page.locator('#health-rows tr.health[data-account="bistro"]');
    await bistro.waitFor();
    expect(await bistro.locator('td.num').first().textContent()).toBe('1');
    // A client's store key expires: its calls fail, and the view shows it without a reload.
    invocation({
      account: 'client-acme',
      function: 'book',
      requestId: 'rq_failed',
      status: 502,
      outcome: 'error',
      code: 'upstream_failed',
      durationMs: 40,
    });
    const acme = page.locator('#health-rows tr.health[data-account="client-acme"]');
    await acme.waitFor({ timeout: 10_000 });
    expect(await acme.locator('td.failed').textContent()).toBe('1');
    expect(await acme.locator('td.codes').textContent()).toBe('upstream_failed 1');
    await page.locator('#health-rows a[data-request="rq_failed"]').first().click();
    const entry = page.locator('#calls tr#req-rq_failed');
    await expect.poll(() => entry.getAttribute('class')).toBe('highlight');
    expect(await entry.getAttribute('data-status')).toBe('502');
  });
});
