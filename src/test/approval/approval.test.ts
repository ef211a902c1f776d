// Approval (docs/functions.md "Approval"): a write above its threshold is asked of the team through
// the platform, answers pending at once, and runs once a person approves, exactly once; denial and
// expiry tell the customer once and never run it. The link page and the team's reply decide.
import { introspectWorkflow, type WorkflowIntrospector } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveAccounts } from '../../accounts/serve.ts';
import { DEFAULT_WAITING } from '../../approval/ask.ts';
import { withApproval } from '../../approval/feature.ts';
import { decideByReply } from '../../approval/reply.ts';
import type { ApprovalOutcome } from '../../approval/workflow.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { manifestKey } from '../../keys.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import { ORIGIN, withEnv } from '../../testing/call.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { env, SECRET } from '../helpers.ts';

const PLATFORM = 'https://platform.approval.test';
const TEAM = { contactId: 'ct_team', channel: 'whatsapp' };
let team: typeof TEAM | undefined = TEAM;
const optedOut = new Set<string>();
const runs: Array<{ orderNumber: string; amountCents: number }> = [];

const refund = defineFunction({
  description: 'Refunds an order, for the tests: a person approves refunds above 100 EUR.',
  parameters: z.object({ orderNumber: z.string(), amountCents: z.number().int().positive() }),
  handler: (args) => {
    runs.push(args);
    return { refunded: args.amountCents, summary: `Refunded ${args.amountCents / 100} EUR on ${args.orderNumber}.` };
  },
  approval: {
    when: (args) => args.amountCents > 10_000,
    ask: (args) => `Refund ${args.amountCents / 100} EUR on order ${args.orderNumber}?`,
    expiresInMs: 3_600_000,
    message: (result) => result.summary,
    denied: 'A colleague could not approve this refund. Nothing was charged back.',
    expired: (args) => `Nobody could approve the refund on ${args.orderNumber} in time; please ask again.`,
  },
});

const worker = createWorker({
  conversations: withApproval(conversationFeatures, { teamContact: () => team }),
  functions: { refund_order: refund },
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  mayMessage: (_env, { contactId }) => !optedOut.has(contactId),
});
const { call, send } = withEnv(worker, env as Env);

let outbound: Outbound;
let sent: Array<{ contactId: string; channel: string; text: string }>;
let messageAnswer: (request: Request) => Response | Promise<Response>;
let workflows: WorkflowIntrospector;
beforeEach(async () => {
  sent = [];
  runs.length = 0;
  team = TEAM;
  optedOut.clear();
  messageAnswer = () => Response.json({ id: `msg_${sent.length}` }, { status: 201 });
  outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
    sent.push((await request.clone().json()) as (typeof sent)[number]);
    return messageAnswer(request);
  });
  workflows = await introspectWorkflow((env as Env & { APPROVALS: Workflow }).APPROVALS);
  await workflows.modifyAll(async (m) => {
    await m.disableRetryDelays();
  });
});
afterEach(async () => {
  outbound.restore();
  await workflows.dispose();
});

let conversations = 0;
/**
 * A customer's call in a conversation of its own (or of `conversationId`), each conversation's
 * customer a contact of its own: a contact's follow-ups are bounded (test/approval/trust.test.ts).
 */
const ask = (amountCents: number, conversationId = `cv_${++conversations}`, orderNumber = '10454') =>
  call('refund_order', {
    orderNumber,
    amountCents,
    contactId: `ct_vera_${conversationId}`,
    conversationId,
    channel: 'whatsapp',
  });

const teamMessages = () => sent.filter((m) => m.contactId === TEAM.contactId);
const customerMessages = () => sent.filter((m) => m.contactId.startsWith('ct_vera'));
/** The link path and reply code of the latest ask the team got. */
const lastAsk = () => {
  const text = teamMessages().at(-1)?.text ?? '';
  const link = /https?:\/\/\S+(\/approvals\/\S+)/.exec(text)?.[1] ?? '';
  const code = /\(([A-Z0-9]{4})\)/.exec(text)?.[1] ?? '';
  return { text, link, code };
};
const pageTokenOf = (html: string) => /name="page" value="([^"]+)"/.exec(html)?.[1] ?? '';
/** Submits the page's form at `link`, as the browser does from the page itself. */
const decide = async (link: string, decision: 'approve' | 'deny', headers: Record<string, string> = {}) => {
  const page = await (await send(link)).text();
  // A header given as '' is left out.
  const given = Object.entries({
    'content-type': 'application/x-www-form-urlencoded',
    origin: ORIGIN,
    'sec-fetch-site': 'same-origin',
    ...headers,
  }).filter(([, value]) => value !== '');
  return send(link, {
    method: 'POST',
    headers: Object.fromEntries(given),
    body: new URLSearchParams({ decision, page: pageTokenOf(page) }).toString(),
  });
};
const finished = async (): Promise<ApprovalOutcome> => {
  const [instance] = await workflows.get();
  if (!instance) throw new Error('no approval instance was created');
  await instance.waitForStatus('complete');
  return (await instance.getOutput()) as ApprovalOutcome;
};

describe('approval', () => {
  it('a call below the threshold runs as today and asks nobody', async () => {
    const response = await ask(5_000);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ refunded: 5_000 });
    expect(runs).toHaveLength(1);
    expect(sent).toEqual([]);
    expect(await workflows.get()).toEqual([]);
  });

  it('a call above it answers pending at once and asks the team with the ask, a link and a code', async () => {
    const response = await ask(12_000);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'pending_approval',
      message: DEFAULT_WAITING,
      followUp: expect.stringContaining('do not call this function again'),
    });
    expect(runs).toEqual([]);
    expect(teamMessages()).toHaveLength(1);
    const { text, link, code } = lastAsk();
    expect(text).toContain('Refund 120 EUR on order 10454?');
    expect(link).toMatch(/^\/approvals\/[A-Za-z0-9_-]{22}$/);
    expect(code).toMatch(/^[A-Z2-9]{4}$/);
    // The page shows the ask and nothing else of the call.
    const page = await send(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('Refund 120 EUR on order 10454?');
    expect(html).not.toContain('ct_vera');
    expect(customerMessages()).toEqual([]);
  });

  it('approved from the page, the handler runs once with the asked arguments and the customer gets one message', async () => {
    await ask(12_000);
    const { link } = lastAsk();
    const decided = await decide(link, 'approve');
    expect(decided.status).toBe(200);
    expect(await decided.text()).toContain('Approved');
    const outcome = await finished();
    expect(outcome).toMatchObject({ decision: 'approved', work: 'done', message: 'sent' });
    expect(outcome.decidedBy).toMatch(/^link:/);
    expect(typeof outcome.decidedAt).toBe('number');
    expect(runs).toEqual([{ orderNumber: '10454', amountCents: 12_000 }]);
    expect(customerMessages().map((m) => m.text)).toEqual(['Refunded 120 EUR on 10454.']);
    // A second decision is answered with the first, and changes nothing.
    const again = await decide(link, 'deny');
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('Already approved');
    expect(runs).toHaveLength(1);
  });

  it('denied, the handler never runs and the customer is told once', async () => {
    await ask(20_000);
    expect((await decide(lastAsk().link, 'deny')).status).toBe(200);
    expect(await finished()).toMatchObject({ decision: 'denied', work: 'not_run', message: 'sent' });
    expect(runs).toEqual([]);
    expect(customerMessages().map((m) => m.text)).toEqual([
      'A colleague could not approve this refund. Nothing was charged back.',
    ]);
  });

  it('expired, the handler never runs, the customer is told once and the team is told', async () => {
    await workflows.modifyAll(async (m) => {
      await m.forceEventTimeout({ name: 'decision' });
    });
    await ask(30_000, undefined, '777');
    expect(await finished()).toMatchObject({ decision: 'expired', work: 'not_run', message: 'sent' });
    expect(runs).toEqual([]);
    expect(customerMessages().map((m) => m.text)).toEqual([
      'Nobody could approve the refund on 777 in time; please ask again.',
    ]);
    expect(teamMessages().map((m) => m.text)).toEqual([
      expect.stringContaining('Approval needed'),
      expect.stringContaining('Expired'),
    ]);
    const link = /\/approvals\/\S+/.exec(teamMessages()[0]?.text ?? '')?.[0] ?? '';
    const page = await send(link);
    expect(page.status).toBe(410);
    // Expired means expired: a late approval changes nothing.
    const late = await send(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      body: 'decision=approve&page=x',
    });
    expect(late.status).not.toBe(200);
    expect(runs).toEqual([]);
  });

  it('a repeat of the same call while it waits gets the same answer and never asks the team twice', async () => {
    const first = await (await ask(15_000, 'cv_repeat')).json();
    const second = await (await ask(15_000, 'cv_repeat')).json();
    expect(second).toEqual(first);
    expect(teamMessages()).toHaveLength(1);
    expect(await workflows.get()).toHaveLength(1);
  });

  it('the team decides by replying "approve <code>"; a message from anyone else decides nothing', async () => {
    await ask(12_500);
    const { code } = lastAsk();
    expect(await decideByReply(env as Env, 'default', { contactId: 'ct_vera', text: `approve ${code}` })).toBe(
      undefined,
    );
    expect(await decideByReply(env as Env, 'default', { contactId: TEAM.contactId, text: `approve ${code}` })).toBe(
      'approved',
    );
    const outcome = await finished();
    expect(outcome).toMatchObject({ decision: 'approved', decidedBy: `contact:${TEAM.contactId}`, work: 'done' });
    expect(runs).toHaveLength(1);
    expect(await decideByReply(env as Env, 'default', { contactId: TEAM.contactId, text: `deny ${code}` })).toBe(
      'unknown_code',
    );
    expect(await decideByReply(env as Env, 'default', { contactId: TEAM.contactId, text: 'hello there' })).toBe(
      undefined,
    );
  });
});

describe('approval: the dev console desk', () => {
  it('under npm run dev lists pending requests and decides one by its code; in production it is not served', async () => {
    await ask(13_000);
    const dev = withEnv(worker, {
      ...(env as Env),
      AGENT_FUNCTIONS_MODE: 'development',
      AGENT_FUNCTIONS_DEV_HOSTS: 'functions.example.com',
    });
    const { approvals } = (await (await dev.send('/approvals')).json()) as {
      approvals: Array<{ code: string; ask: string }>;
    };
    const { code } = lastAsk();
    expect(approvals).toContainEqual(expect.objectContaining({ code, ask: 'Refund 130 EUR on order 10454?' }));
    const decided = await dev.send('/approvals', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, decision: 'approve' }),
    });
    expect(await decided.json()).toEqual({ outcome: 'decided', state: 'approved' });
    expect(await finished()).toMatchObject({ decision: 'approved', decidedBy: 'console', work: 'done' });
    expect((await send('/approvals')).status).toBe(404);
  });
});

describe('approval: bad input and faults', () => {
  it("a forged link, another account's link, a cross-site POST and a wrong page token change nothing", async () => {
    await ask(12_000);
    const { link } = lastAsk();
    expect((await send('/approvals/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    expect(await (await send('/approvals/not-a-token')).text()).toContain('This link is not valid');
    expect((await send(`${link}?account=client-acme`)).status).toBe(404);
    const crossSite = await decide(link, 'approve', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.text()).toContain('did not come from this page');
    // A browser that sends no Sec-Fetch-Site still sends Origin: another site's is refused.
    const otherOrigin = await decide(link, 'approve', { origin: 'https://evil.example', 'sec-fetch-site': '' });
    expect(otherOrigin.status).toBe(403);
    const forgedForm = await send(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN },
      body: 'decision=approve&page=guess',
    });
    expect(forgedForm.status).toBe(403);
    // Still pending: the page still offers the decision.
    expect((await send(link)).status).toBe(200);
    expect(runs).toEqual([]);
  });

  it('without a team contact, or one who opted out, or one the platform refuses, the call answers unavailable and nothing runs', async () => {
    team = undefined;
    const missing = await ask(12_000);
    expect(missing.status).toBe(503);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('approval_unavailable');
    team = TEAM;
    optedOut.add(TEAM.contactId);
    expect((await ask(12_000)).status).toBe(503);
    optedOut.clear();
    messageAnswer = () =>
      Response.json({ error: { code: 'invalid_contact', message: 'no such contact' } }, { status: 400 });
    const refused = await ask(12_000);
    expect(refused.status).toBe(503);
    // The request is withdrawn: its link decides nothing, and no workflow waits for it.
    expect((await send(lastAsk().link)).status).toBe(410);
    expect(runs).toEqual([]);
    expect(customerMessages()).toEqual([]);
  });

  it('under MCP, or without a conversation, approval is refused clearly and nothing runs', async () => {
    const response = await call('refund_order', { orderNumber: '1', amountCents: 50_000 });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('approval_needs_conversation');
    expect(runs).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('a function with approval in a Worker that cannot ask anyone is refused, never run unapproved', async () => {
    for (const conversations of [conversationFeatures, undefined]) {
      const plain = createWorker({ functions: { refund_order: refund }, ...(conversations ? { conversations } : {}) });
      const manifest = await withEnv(plain, env as Env).send('/functions', {
        headers: { authorization: `Bearer ${await manifestKey(SECRET)}` },
      });
      expect(manifest.status).toBe(500);
      expect(JSON.stringify(await manifest.json())).toContain('withApproval');
      const response = await withEnv(plain, env as Env).call('refund_order', {
        orderNumber: '1',
        amountCents: 50_000,
        contactId: 'ct_vera',
        conversationId: 'cv_plain',
        channel: 'whatsapp',
      });
      expect(response.status).toBe(500);
    }
    expect(runs).toEqual([]);
  });

  it('a definition whose approval cannot work is refused with what to change', async () => {
    const broken = createWorker({
      conversations: withApproval(conversationFeatures, { teamContact: () => TEAM }),
      functions: {
        bad_lookup: defineFunction({
          description: 'A read that asks for approval, which makes no sense: refused.',
          parameters: z.object({}),
          effect: 'read',
          handler: () => ({}),
          approval: {
            ask: () => 'Look?',
            message: () => 'ok',
            denied: 'Not approved, sorry.',
            expired: 'Too late, sorry.',
          },
        }),
      },
    });
    const response = await withEnv(broken, env as Env).send('/functions', {
      headers: { authorization: `Bearer ${await manifestKey(SECRET)}` },
    });
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).toContain('approval is for writes');
  });
});

describe('approval: several Workers in one isolate', () => {
  it('is decided by reply and run by the Worker that can act in its account, not a Worker made later for other accounts', async () => {
    // A test's own Worker (its own accounts file) serving the same function, made after the project's.
    createWorker({
      conversations: withApproval(conversationFeatures, { teamContact: () => TEAM }),
      functions: { refund_order: refund },
      accounts: serveAccounts({
        list: [{ name: 'someone-else', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
      }),
      platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
    });
    expect(await (await ask(12_500)).json()).toMatchObject({ status: 'pending_approval' });
    const { code } = lastAsk();
    expect(await decideByReply(env as Env, 'default', { contactId: TEAM.contactId, text: `approve ${code}` })).toBe(
      'approved',
    );
    expect(await finished()).toMatchObject({ decision: 'approved', work: 'done', message: 'sent' });
    expect(runs).toHaveLength(1);
    expect(customerMessages().map((m) => m.text)).toEqual(['Refunded 125 EUR on 10454.']);
  });
});
