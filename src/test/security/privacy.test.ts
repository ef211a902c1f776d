// What is recorded never carries a customer's data (docs/observability.md "What is recorded, and
// what never is"): calls whose arguments carry an email, a phone number, a name and free text,
// beside the platform's contact and conversation ids, over HTTP and MCP, deferred, approved and as
// an event delivery; not one of those values, nor a key, appears in any log line, record or trace
// attribute.

import { createExecutionContext, introspectWorkflow, waitOnExecutionContext } from 'cloudflare:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withApproval } from '../../approval/feature.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { defineEvent } from '../../events/define.ts';
import { functionKey, mcpKey } from '../../keys.ts';
import { setLogSink } from '../../log.ts';
import { mcpOnDemand } from '../../mcp/onDemand.ts';
import { callMetrics } from '../../metrics/index.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import type { CallRecord } from '../../record.ts';
import { ORIGIN, through } from '../../testing/call.ts';
import { settleDeferred } from '../../testing/conversations.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { eventsWorker, queued } from '../events/helpers.ts';
import { collectRecords, env, restoreRecordSinkAfterAll, SECRET } from '../helpers.ts';

/** A customer's data, as the platform's agent passes it on. */
const PERSONAL = {
  email: 'annabel.leeworth@example.org',
  phone: '+447700900123',
  name: 'Annabel Leeworth',
  note: 'my knee surgery moved to friday',
};
/** The platform's identifiers of the customer and the conversation (docs/platform-contract.md §9). */
const IDS = { contactId: 'ct_privacy_7731', conversationId: 'cv_privacy_5520', channel: 'whatsapp' };
const PLATFORM = 'https://platform.privacy.test';
const TEAM = { contactId: 'ct_team_privacy', channel: 'whatsapp' };

const personal = z.object({ email: z.string(), phone: z.string(), name: z.string(), note: z.string() });
restoreRecordSinkAfterAll();
const worker = createWorker({
  conversations: withApproval(conversationFeatures, { teamContact: () => TEAM }),
  mcp: mcpOnDemand(() => import('../../mcp/index.ts')),
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  // The span's attributes and the figures are the metrics option's: its sink stays, beside the test's.
  // Its tracing is the test's span (below), traced as a deployed Worker with traces on sees it.
  metrics: callMetrics({ tracing: { getActiveSpan: () => span } }),
  functions: {
    privacy_profile: defineFunction({
      description: 'Saves a profile for the privacy test: a write, so a repeat is answered from the ledger.',
      parameters: personal,
      handler: ({ name }) => ({ saved: name }),
    }),
    privacy_failing: defineFunction({
      description: 'Fails with the customer’s data in its error, for the privacy test.',
      parameters: personal,
      effect: 'read',
      handler: ({ email, note }) => {
        throw new Error(`could not reach ${email}: ${note}`);
      },
    }),
    privacy_later: defineFunction({
      description: 'Looks a profile up slowly for the privacy test: may answer later.',
      parameters: personal,
      effect: 'read',
      timeoutMs: 10_000,
      handler: async ({ name }, { signal, deferred }) => {
        // Seconds in the call, so no loaded machine sees it end before it defers (it is stopped then).
        await scheduler.wait(deferred ? 10 : 8_000, { signal });
        return { found: name };
      },
      later: {
        answerWithinMs: 1_000,
        interim: 'Looking the profile up; a message follows here.',
        message: ({ found }) => `Found ${found}.`,
      },
    }),
    privacy_refund: defineFunction({
      description: 'Refunds for the privacy test: a person approves every refund first.',
      parameters: personal,
      handler: ({ name }) => ({ refunded: name }),
      approval: {
        ask: ({ name, email }) => `Refund ${name} (${email})?`,
        message: ({ refunded }) => `Refunded ${refunded}.`,
        denied: 'Not approved.',
        expired: 'Nobody decided in time.',
      },
    }),
  },
});
/** What the Worker attaches to each traced call's span (Workers traces, docs/observability.md "Traces"). */
const attached: Array<Record<string, string | undefined>> = [];
const span = {
  isTraced: true,
  setAttributes: (attributes: Record<string, string | undefined>) => attached.push(attributes),
};
/** The Worker, its waitUntil awaited after each call. */
const tracedFetch = async (request: Request): Promise<Response> => {
  const ctx = createExecutionContext();
  const response = await worker.fetch(request, env as Env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
};
// Signed as the platform signs, so the conversation ids count (docs/platform-contract.md §9).
const { call, send } = through({ fetch: tracedFetch }, { signingSecret: (env as Env).PLATFORM_SIGNING_SECRET });
const events = eventsWorker({
  'contact.updated': defineEvent({
    type: 'contact.updated',
    payload: z.looseObject({ data: z.looseObject({ email: z.string() }) }),
    handler: () => {},
  }),
});

const lines: string[] = [];
const records: CallRecord[] = [];
collectRecords(records);
const teamTexts: string[] = [];
let outbound: Outbound;
let previousLog: ReturnType<typeof setLogSink>;
beforeAll(async () => {
  previousLog = setLogSink((line) => lines.push(line));
  outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
    const { contactId, text } = (await request.clone().json()) as { contactId: string; text: string };
    if (contactId === TEAM.contactId) teamTexts.push(text);
    return Response.json({ id: 'msg_1' }, { status: 201 });
  });
  await import('../../mcp/index.ts');
}, 60_000);
afterAll(() => {
  setLogSink(previousLog);
  outbound.restore();
});

const mcpCall = async (name: string, args: Record<string, unknown>) => {
  const client = new Client({ name: 'privacy-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', ORIGIN), {
    fetch: (input, init) => tracedFetch(new Request(input, init)),
    requestInit: { headers: { authorization: `Bearer ${await mcpKey(SECRET)}` } },
  });
  await client.connect(transport);
  try {
    return await client.callTool({ name, arguments: args });
  } finally {
    await client.close();
  }
};

const approveLatest = async () => {
  const link = /https?:\/\/\S+(\/approvals\/\S+)/.exec(teamTexts.at(-1) ?? '')?.[1] ?? '';
  const page = await (await send(link)).text();
  const pageToken = /name="page" value="([^"]+)"/.exec(page)?.[1] ?? '';
  return send(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ decision: 'approve', page: pageToken }).toString(),
  });
};

describe('what is recorded never carries personal data', () => {
  it('keeps every argument, identifier and key out of every log line, record and span attribute, on every path', async () => {
    const args = { ...PERSONAL, ...IDS };
    // HTTP: a write and its repeat from the ledger, a refusal, a handler that throws.
    expect((await call('privacy_profile', args)).status).toBe(200);
    expect((await call('privacy_profile', args)).status).toBe(200);
    expect((await call('privacy_profile', { ...args, phone: 42 })).status).toBe(422);
    expect((await call('privacy_failing', args)).status).toBe(500);
    // MCP.
    expect((await mcpCall('privacy_profile', PERSONAL)).isError).toBeFalsy();
    // A deferred call and its work.
    const { outcomes } = await settleDeferred(
      () => call('privacy_later', { ...args, conversationId: `${IDS.conversationId}_later` }),
      { answerWithinMs: 300 },
    );
    expect(outcomes).toEqual([{ work: 'done', message: 'sent' }]);
    // An approval: its ask, decision and run.
    const approvals = await introspectWorkflow((env as Env & { APPROVALS: Workflow }).APPROVALS);
    try {
      await approvals.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
      const asked = await call('privacy_refund', { ...args, conversationId: `${IDS.conversationId}_refund` });
      expect(await asked.json()).toMatchObject({ status: 'pending_approval' });
      expect((await approveLatest()).status).toBe(200);
      const [instance] = await approvals.get();
      await instance?.waitForStatus('complete');
    } finally {
      await approvals.dispose();
    }
    // An event delivery whose payload carries the same data.
    await events.consume([{ ...queued('contact.updated', { ...PERSONAL, ...IDS }), account: 'acme' }]);

    // Every path made its records: the test saw what it checks.
    const kinds = records.map((record) => `${record.transport}/${record.kind}`);
    expect(new Set(kinds)).toEqual(
      new Set([
        'http/call',
        'mcp/call',
        'workflow/deferred',
        'http/approval_ask',
        'workflow/approval_decision',
        'workflow/approval_run',
        'queue/event',
      ]),
    );
    // Each call over HTTP or MCP annotated its span.
    expect(attached.map((attributes) => attributes['agent_functions.transport'])).toContain('mcp');
    expect(attached.length).toBeGreaterThanOrEqual(6);
    const written = [...lines, ...records.map((record) => JSON.stringify(record)), JSON.stringify(attached)].join('\n');
    const secrets = [
      await functionKey(SECRET, 'privacy_profile'),
      await functionKey(SECRET, 'privacy_later'),
      await mcpKey(SECRET),
      SECRET,
      'test-platform-key',
    ];
    for (const value of [...Object.values(PERSONAL), IDS.contactId, IDS.conversationId, ...secrets]) {
      expect(written, value).not.toContain(value);
    }
    // Parts of them neither: the name's words, the email's user, the phone's digits.
    for (const part of ['Annabel', 'Leeworth', 'annabel.leeworth', '7700900123', 'knee surgery', 'privacy_7731']) {
      expect(written, part).not.toContain(part);
    }
  }, 120_000);
});
