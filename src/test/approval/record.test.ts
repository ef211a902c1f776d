// The records of an approval (src/record.ts): the call that asks is marked approval_ask on its one
// record; its workflow records the decision (approved, denied or expired) and, when approved, the
// run with the customer's follow-up, each once.
import { introspectWorkflow, type WorkflowIntrospector } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withApproval } from '../../approval/feature.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { callMetrics } from '../../metrics/index.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import type { CallRecord } from '../../record.ts';
import { ORIGIN, withEnv } from '../../testing/call.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { collectRecords, env, envWithoutFigures, restoreRecordSinkAfterAll } from '../helpers.ts';

const PLATFORM = 'https://platform.approval-records.test';
const TEAM = { contactId: 'ct_team_rec', channel: 'whatsapp' };

restoreRecordSinkAfterAll();
const worker = createWorker({
  conversations: withApproval(conversationFeatures, { teamContact: () => TEAM }),
  functions: {
    rec_refund: defineFunction({
      description: 'Refunds an order for the record tests: a person approves every refund.',
      parameters: z.object({ orderNumber: z.string() }),
      handler: ({ orderNumber }) => ({ summary: `Refunded ${orderNumber}.` }),
      approval: {
        ask: ({ orderNumber }) => `Refund order ${orderNumber}?`,
        message: (result) => result.summary,
        denied: 'Not approved.',
        expired: 'Nobody decided in time.',
      },
    }),
  },
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  // Its sink stamps the records' versions; the tests' sink below runs after it.
  metrics: callMetrics(),
});
// Without the figures' bindings: the option's sink stamps the version, and flushes nothing.
const { call, send } = withEnv(worker, envWithoutFigures());

const records: CallRecord[] = [];
const teamTexts: string[] = [];
let outbound: Outbound;
let workflows: WorkflowIntrospector;
collectRecords(records);
beforeEach(async () => {
  records.length = 0;
  teamTexts.length = 0;
  outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
    const { contactId, text } = (await request.clone().json()) as { contactId: string; text: string };
    if (contactId === TEAM.contactId) teamTexts.push(text);
    return Response.json({ id: 'msg_1' }, { status: 201 });
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
// A contact of its own per conversation: each ask spends its contact's follow-up budget (docs/security.md).
const ask = (conversationId = `cv_rec_${++conversations}`) =>
  call('rec_refund', { orderNumber: '10454', contactId: `ct_${conversationId}`, conversationId, channel: 'whatsapp' });
/** Decides the latest ask from its page, as the team member's browser does. */
const decide = async (decision: 'approve' | 'deny') => {
  const link = /https?:\/\/\S+(\/approvals\/\S+)/.exec(teamTexts.at(-1) ?? '')?.[1] ?? '';
  const page = await (await send(link)).text();
  const pageToken = /name="page" value="([^"]+)"/.exec(page)?.[1] ?? '';
  return send(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ decision, page: pageToken }).toString(),
  });
};
const finished = async () => {
  const [instance] = await workflows.get();
  await instance?.waitForStatus('complete');
};
const ofKind = (kind: CallRecord['kind']) => records.filter((record) => record.kind === kind);

describe('the records of an approval', () => {
  it('records the ask, the approval and the approved run, each once, under the call’s request id', async () => {
    const response = await ask();
    expect(await response.json()).toMatchObject({ status: 'pending_approval' });
    expect((await decide('approve')).status).toBe(200);
    await finished();
    const [asked] = ofKind('approval_ask');
    expect(ofKind('approval_ask')).toHaveLength(1);
    expect(asked).toMatchObject({
      account: 'default',
      function: 'rec_refund',
      transport: 'http',
      outcome: 'ok',
      requestId: response.headers.get('x-request-id'),
    });
    expect(asked?.version).toMatch(/^[0-9a-f]{8}$/);
    expect(ofKind('approval_decision')).toEqual([
      expect.objectContaining({
        account: 'default',
        function: 'rec_refund',
        transport: 'workflow',
        outcome: 'ok',
        code: 'approved',
        version: asked?.version,
        requestId: asked?.requestId,
      }),
    ]);
    expect(ofKind('approval_run')).toEqual([
      expect.objectContaining({ transport: 'workflow', outcome: 'ok', status: 200, followUp: 'sent' }),
    ]);
    expect(records).toHaveLength(3);
  });

  it('records a repeat of the ask in its conversation as a repeated ask, and asks nobody again', async () => {
    await ask('cv_rec_twice');
    await ask('cv_rec_twice');
    expect(ofKind('approval_ask').map((record) => record.repeated)).toEqual([undefined, true]);
    expect(teamTexts).toHaveLength(1);
  });

  it('records a denial as the decision, and no run', async () => {
    await ask();
    expect((await decide('deny')).status).toBe(200);
    await finished();
    expect(ofKind('approval_decision')).toEqual([expect.objectContaining({ code: 'denied', outcome: 'ok' })]);
    expect(ofKind('approval_run')).toEqual([]);
  });

  it('records an expiry as the decision, and no run', async () => {
    await workflows.modifyAll(async (m) => {
      await m.forceEventTimeout({ name: 'decision' });
    });
    await ask();
    await finished();
    expect(ofKind('approval_decision')).toEqual([expect.objectContaining({ code: 'expired' })]);
    expect(ofKind('approval_run')).toEqual([]);
    expect(records).toHaveLength(2);
  });
});
