// A person approves from the approval page in a real headless browser: the production bundle of a
// Worker with approvals (bench/workers/projectWithApproval.ts) on workerd, against the real local
// platform. The call answers pending, the team's message holds the link, the page shows only the
// ask, Approve runs the function once and the customer gets one message; a second visit says it
// was decided. The page's screenshot lands in test-results/ (not committed).
import { mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPlatformClient } from 'agent-functions/platform';
import { functionKey } from 'agent-functions/worker';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorker } from '../bench/src/buildWorker.ts';
import { VALID_BODY } from '../bench/src/invocation.ts';
import { BENCH_SECRET, type ServedWorker, serveWorker } from '../bench/src/serveWorker.ts';
import { type RunningEmulator, startEmulator } from '../scripts/platform/emulator.ts';
import { PROJECT_ROOT } from '../scripts/test/repo.ts';
import { launchBrowser } from './browser.ts';

let dir: string;
let emulator: RunningEmulator;
let worker: ServedWorker;
let browser: Browser;
let team = '';
let customer = '';

const messagesTo = (contactId: string) =>
  [...(emulator.state.accounts[0]?.messages.values() ?? [])].filter(
    (m) => m.direction === 'outbound' && m.contactId === contactId,
  );

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-functions-approval-e2e-'));
  emulator = await startEmulator({ port: 0, rateLimit: false });
  const account = emulator.accounts[0];
  if (!account) throw new Error('the local platform has no account');
  const client = createPlatformClient({ baseUrl: emulator.url, apiKey: account.apiKey });
  team = (await client.contacts.create({ name: 'Team inbox', phone: '+15555550199', channel: 'whatsapp' })).id;
  customer = (await client.contacts.create({ name: 'Vera', phone: '+15555550100', channel: 'whatsapp' })).id;
  const built = await buildWorker('bench/workers/projectWithApproval.ts', { BENCH_FUNCTIONS: '1' }, join(dir, 'w'));
  worker = await serveWorker(built.scriptPath, {
    bindings: { PLATFORM_API_KEY: account.apiKey, PLATFORM_BASE_URL: emulator.url, BENCH_TEAM_CONTACT: team },
    durableObjects: { CALL_LEDGER: 'CallLedger', APPROVAL_DESK: 'ApprovalDesk' },
    workflows: {
      DEFERRED_CALLS: { name: 'e2e-deferred-calls', className: 'DeferredCall' },
      APPROVALS: { name: 'e2e-approvals', className: 'ApprovalRequest' },
    },
  });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await worker?.stop();
  await emulator?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('approving from the page', () => {
  it('the team approves in the browser; the function runs once and the customer is told once', async () => {
    const url = new URL(`/functions/quote_ask?key=${await functionKey(BENCH_SECRET, 'quote_ask')}`, worker.url);
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        ...JSON.parse(VALID_BODY),
        contactId: customer,
        conversationId: 'cv_e2e',
        channel: 'whatsapp',
      }),
    });
    expect(await response.json()).toMatchObject({ status: 'pending_approval' });
    const [ask] = messagesTo(team);
    const link = /https?:\/\/\S+\/approvals\/\S+/.exec(ask?.text ?? '')?.[0];
    expect(link).toBeDefined();
    expect(messagesTo(customer)).toEqual([]);

    const page = await browser.newPage({ viewport: { width: 480, height: 640 } });
    await page.goto(link as string);
    expect(await page.locator('h1').textContent()).toBe('Approval needed');
    expect(await page.locator('.ask').textContent()).toBe('Quote 12 seats?');
    mkdirSync(join(PROJECT_ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(PROJECT_ROOT, 'test-results', 'approval-page.png') });
    await page.locator('button', { hasText: 'Approve' }).click();
    await page.waitForLoadState();
    expect(await page.locator('h1').textContent(), await page.content()).toBe('Approved');

    const until = Date.now() + 30_000;
    while (messagesTo(customer).length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(messagesTo(customer).map((m) => m.text)).toEqual([expect.stringContaining('12')]);

    // The link decided once: a second visit says so, and a second decision changes nothing.
    await page.goto(link as string);
    expect(await page.locator('h1').textContent()).toBe('Already approved');
    expect(await page.locator('button').count()).toBe(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(messagesTo(customer)).toHaveLength(1);
  }, 90_000);
});
