// Approval cannot be turned into a weapon (docs/security.md): a request spends its customer's
// follow-up budget and the account's asks to its team are bounded; the team's message keeps the
// framework's own lines first and the ask on one quoted line; a link of an account the Worker does
// not serve touches no desk; a decided link shows only its state, no reply code is logged, and the
// desk's alarm drops the ask at expiry and the row a week later.
import {
  introspectWorkflow,
  listDurableObjectIds,
  runDurableObjectAlarm,
  runInDurableObject,
  type WorkflowIntrospector,
} from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveAccounts } from '../../accounts/serve.ts';
import { readStoredAccount } from '../../accounts/store.ts';
import { TEAM_ASK_LIMIT } from '../../approval/budget.ts';
import { type ApprovalDesk, KEEP_MS } from '../../approval/desk.ts';
import { withApproval } from '../../approval/feature.ts';
import { ASK_MAX_CHARS } from '../../approval/text.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { setLogSink } from '../../log.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import { ORIGIN, withEnv } from '../../testing/call.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { env } from '../helpers.ts';

const PLATFORM = 'https://platform.approval-trust.test';
const TEAM = { contactId: 'ct_team_trust', channel: 'whatsapp' };
// Accounts of this file alone (desks and ledgers are per account), fresh on every run.
const RUN = crypto.randomUUID().slice(0, 8);
const FIRST = `trust-${RUN}`;
const BUSY = `busy-${RUN}`;

const refund = defineFunction({
  description: 'Refunds an order, for the tests: a person approves every refund.',
  parameters: z.object({ orderNumber: z.string(), reason: z.string().optional() }),
  handler: ({ orderNumber }) => ({ summary: `Refunded ${orderNumber}.` }),
  approval: {
    ask: ({ orderNumber, reason }) => `Refund order ${orderNumber}?${reason ? ` Reason given: ${reason}` : ''}`,
    expiresInMs: 3_600_000,
    message: (result) => result.summary,
    denied: 'A colleague could not approve this refund.',
    expired: 'Nobody could approve the refund in time; please ask again.',
  },
});
const account = (name: string) => ({ name, apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' });
const worker = createWorker({
  conversations: withApproval(conversationFeatures, { teamContact: () => TEAM }),
  functions: { refund_trust: refund },
  accounts: serveAccounts({ list: [account(FIRST), account(BUSY)] }),
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
});
const first = withEnv(worker, env as Env);
// A Worker that also finds accounts in the account store, as the project's worker.ts does.
const withStore = withEnv(
  createWorker({
    conversations: withApproval(conversationFeatures, { teamContact: () => TEAM }),
    functions: { refund_trust: refund },
    accounts: serveAccounts({ list: [account(`stored-${RUN}`)], store: readStoredAccount }),
    platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  }),
  env as Env,
);
const busy = withEnv(worker, env as Env, BUSY);

let outbound: Outbound;
let sent: Array<{ contactId: string; text: string }>;
let logs: Array<Record<string, unknown>>;
let restoreLog: () => void;
let workflows: WorkflowIntrospector;
beforeEach(async () => {
  sent = [];
  logs = [];
  const previous = setLogSink((line) => logs.push(JSON.parse(line) as Record<string, unknown>));
  restoreLog = () => setLogSink(previous);
  outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
    sent.push((await request.clone().json()) as (typeof sent)[number]);
    return Response.json({ id: `msg_${sent.length}` }, { status: 201 });
  });
  workflows = await introspectWorkflow((env as Env & { APPROVALS: Workflow }).APPROVALS);
});
afterEach(async () => {
  restoreLog();
  outbound.restore();
  await workflows.dispose();
});

let conversations = 0;
const asking = (caller: typeof first, contactId: string, orderNumber: string, reason?: string) =>
  caller.call('refund_trust', {
    orderNumber,
    ...(reason ? { reason } : {}),
    contactId,
    conversationId: `cv_trust_${++conversations}`,
    channel: 'whatsapp',
  });
const teamTexts = () => sent.filter((m) => m.contactId === TEAM.contactId).map((m) => m.text);
const codeOf = (text: string) => /\(([A-Z0-9]{4})\)/.exec(text)?.[1] ?? '';
const linkOf = (text: string) => /^Approve or deny: https?:\/\/[^/]+(\/approvals\/\S+)$/m.exec(text)?.[1] ?? '';
const deskOf = (name: string) =>
  (env as Env & { APPROVAL_DESK: DurableObjectNamespace<ApprovalDesk> }).APPROVAL_DESK.getByName(name);
const errorCode = async (response: Response) => ((await response.json()) as { error?: { code?: string } }).error?.code;

describe('approval spends the follow-up budget of the customer it names', () => {
  it('asks at most twice for one contact in 10 minutes, then answers unavailable and asks nobody', async () => {
    const victim = `ct_victim_${RUN}`;
    const answers = [];
    for (const order of ['1', '2', '3', '4']) answers.push(await asking(first, victim, order));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 503, 503]);
    expect(await errorCode(answers[2] as Response)).toBe('approval_unavailable');
    expect(teamTexts()).toHaveLength(2);
    expect(logs.some((line) => line.event === 'approval_follow_up_budget_spent')).toBe(true);
  });

  it('a repeat of a request still waiting spends nothing and is answered as pending, even past the budget', async () => {
    const contact = `ct_repeat_${RUN}`;
    const call = { orderNumber: '10', contactId: contact, conversationId: `cv_repeat_${RUN}`, channel: 'whatsapp' };
    expect((await first.call('refund_trust', call)).status).toBe(200);
    expect((await first.call('refund_trust', call)).status).toBe(200);
    // The repeat gave its follow-up back: a second request still fits.
    expect((await asking(first, contact, '11')).status).toBe(200);
    // Both spent now: the first call's repeat is still answered as pending.
    expect(await (await first.call('refund_trust', call)).json()).toMatchObject({ status: 'pending_approval' });
    expect(teamTexts()).toHaveLength(2);
  });

  it(`asks one account's team at most ${TEAM_ASK_LIMIT} times in 10 minutes, whoever the customers are`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= TEAM_ASK_LIMIT; i++) statuses.push((await asking(busy, `ct_many_${RUN}_${i}`, `${i}`)).status);
    expect(statuses.slice(0, TEAM_ASK_LIMIT).every((status) => status === 200)).toBe(true);
    expect(statuses[TEAM_ASK_LIMIT]).toBe(503);
    expect(teamTexts()).toHaveLength(TEAM_ASK_LIMIT);
    expect(logs.some((line) => line.event === 'approval_team_asks_spent')).toBe(true);
    // Another account's team is still asked.
    expect((await asking(first, `ct_other_${RUN}`, '1')).status).toBe(200);
  });
});

describe("the team's message cannot be forged by the ask", () => {
  const forged = [
    'the mug arrived broken',
    'Approve or deny: https://evil.example/approvals/AAAAAAAAAAAAAAAAAAAAAA',
    'Or reply "approve 7777" or "deny 7777".\r\u2028\u202eApproval needed (7777)',
  ].join('\n');

  it('puts the code, link and expiry first and the ask last, on one quoted line', async () => {
    expect((await asking(first, `ct_forge_${RUN}`, '10452', forged)).status).toBe(200);
    const [text = ''] = teamTexts();
    const lines = text.split('\n');
    expect(lines).toHaveLength(4);
    const code = codeOf(lines[0] as string);
    expect(lines[0]).toMatch(/^Approval needed \([A-Z2-9]{4}\), expires \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/);
    expect(lines[1]).toMatch(/^Approve or deny: https:\/\/\S+\/approvals\/[A-Za-z0-9_-]{22}\?account=trust-/);
    expect(lines[2]).toBe(`Or reply "approve ${code}" or "deny ${code}".`);
    const ask = lines[3] as string;
    expect(ask.startsWith('Request: "Refund order 10452? Reason given: the mug arrived broken Approve or deny:')).toBe(
      true,
    );
    expect(ask.endsWith('"')).toBe(true);
    // The quotes inside cannot close the ask's own, and no control or direction character is left.
    expect(ask.slice('Request: "'.length, -1)).not.toContain('"');
    expect(ask).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u);
    expect(linkOf(text)).not.toContain('evil');
  });

  it('caps the ask at ASK_MAX_CHARS', async () => {
    expect((await asking(first, `ct_long_${RUN}`, '7', 'x'.repeat(5_000))).status).toBe(200);
    const ask = teamTexts()[0]?.split('\n').at(-1) ?? '';
    expect(ask.length).toBeLessThanOrEqual('Request: ""'.length + ASK_MAX_CHARS);
    expect(ask.endsWith('…"')).toBe(true);
  });

  it('tells the team of an expiry with its code first and the same one quoted line', async () => {
    await workflows.modifyAll(async (m) => {
      await m.disableRetryDelays();
      await m.forceEventTimeout({ name: 'decision' });
    });
    expect((await asking(first, `ct_expire_${RUN}`, '10453', forged)).status).toBe(200);
    const [instance] = await workflows.get();
    await instance?.waitForStatus('complete');
    const expired = teamTexts()[1] ?? '';
    const lines = expired.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^Expired \([A-Z2-9]{4}\): nobody decided in time/);
    expect(lines[1]?.startsWith('Request: "Refund order 10453?')).toBe(true);
  });
});

describe('the approval page', () => {
  it('touches no desk for an account the Worker does not serve', async () => {
    const namespace = (env as Env & { APPROVAL_DESK: DurableObjectNamespace }).APPROVAL_DESK;
    const ghost = `ghost-${RUN}`;
    const response = await first.send(`/approvals/AAAAAAAAAAAAAAAAAAAAAA?account=${ghost}`);
    expect(response.status).toBe(404);
    const ghostId = namespace.idFromName(ghost);
    expect((await listDurableObjectIds(namespace)).some((id) => id.equals(ghostId))).toBe(false);
    // Nor an account store's object, where the Worker looks for accounts it was not built with.
    const stores = (env as Env & { ACCOUNT_STORE: DurableObjectNamespace }).ACCOUNT_STORE;
    const stranger = `stranger-${RUN}`;
    expect((await withStore.send(`/approvals/AAAAAAAAAAAAAAAAAAAAAA?account=${stranger}`)).status).toBe(404);
    const ids = await listDurableObjectIds(stores);
    expect(ids.some((id) => id.equals(stores.idFromName(stranger)))).toBe(false);
    expect(ids.some((id) => id.equals(namespace.idFromName(stranger)))).toBe(false);
    // A served account's forged link is a 404 too.
    expect((await first.send(`/approvals/AAAAAAAAAAAAAAAAAAAAAA?account=${FIRST}`)).status).toBe(404);
  });

  it('shows only the state once decided, never the ask', async () => {
    expect((await asking(first, `ct_page_${RUN}`, '555', 'my neighbour Anna Example broke it')).status).toBe(200);
    const link = linkOf(teamTexts()[0] ?? '');
    const page = await (await first.send(link)).text();
    expect(page).toContain('Anna Example');
    const decided = await first.send(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({
        decision: 'deny',
        page: /name="page" value="([^"]+)"/.exec(page)?.[1] ?? '',
      }).toString(),
    });
    expect(decided.status).toBe(200);
    expect(await decided.text()).not.toContain('Anna Example');
    const after = await first.send(link);
    expect(after.status).toBe(409);
    const html = await after.text();
    expect(html).toContain('Already denied');
    expect(html).not.toContain('Anna Example');
    expect(html).not.toContain('555');
  });

  it('logs no reply code', async () => {
    expect((await asking(first, `ct_log_${RUN}`, '42')).status).toBe(200);
    const code = codeOf(teamTexts()[0] ?? '');
    const asked = logs.find((line) => line.event === 'approval_asked');
    expect(asked).toBeDefined();
    expect(logs.filter((line) => JSON.stringify(line).includes(code))).toEqual([]);
  });

  it("the desk's alarm drops the ask at the expiry and the row a week later", async () => {
    const desk = deskOf(`alarm-${RUN}`);
    const expiresAt = Date.now() + 60_000;
    const opened = await desk.open({
      call: 'c1',
      name: 'refund_trust',
      ask: 'Refund order 9 for Anna Example?',
      expiresAt,
      linkHash: 'h1',
      pageToken: 'p1',
      limit: 5,
    });
    expect(opened.created).toBe(true);
    expect(await runInDurableObject(desk, (_, state) => state.storage.getAlarm())).toBe(expiresAt);
    const rows = () =>
      runInDurableObject(desk, (_, state) => state.storage.sql.exec('SELECT ask FROM requests').toArray());
    // Past its expiry: the ask goes, the row stays (its state answers the link).
    await runInDurableObject(desk, (_, state) => {
      state.storage.sql.exec('UPDATE requests SET expires = ?', Date.now() - 1);
    });
    expect(await runDurableObjectAlarm(desk)).toBe(true);
    expect(await rows()).toEqual([{ ask: '' }]);
    const next = await runInDurableObject(desk, (_, state) => state.storage.getAlarm());
    expect(next).toBeGreaterThan(Date.now() + KEEP_MS - 60_000);
    // A week after its expiry: the row goes too.
    await runInDurableObject(desk, (_, state) => {
      state.storage.sql.exec('UPDATE requests SET expires = ?', Date.now() - KEEP_MS - 1);
    });
    expect(await runDurableObjectAlarm(desk)).toBe(true);
    expect(await rows()).toEqual([]);
  });
});
