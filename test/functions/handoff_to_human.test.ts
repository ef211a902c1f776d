import { errorOf, mockOutbound, type Outbound } from 'agent-functions/testing';
import type { Platform } from 'agent-functions-cli/platform';
import { messagesOf, PLATFORM_URL as PLATFORM, seedContact, usePlatform } from 'agent-functions-cli/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callWith, platformEnv } from '../helpers.ts';

const handoff = {
  summary:
    'Ann Lee wants a refund for order 10452; the mug arrived broken. She sent a photo and is waiting for an answer.',
  reason: 'complaint',
  customerName: 'Ann Lee',
  customerPhone: '+44 7700 900123',
};

let outbound: Outbound;
let platform: Platform;
beforeEach(() => {
  outbound = mockOutbound();
  platform = usePlatform(outbound);
  // The team inbox HANDOFF_CONTACT_ID names (platformEnv).
  seedContact(platform, { id: 'ct_team', name: 'Team inbox', phone: '+447700900999', channel: 'whatsapp' });
});
afterEach(() => outbound.restore());

describe('handoff_to_human', () => {
  it("sends the model's summary to the team inbox and says what to tell the customer", async () => {
    const response = await callWith('handoff_to_human', handoff);
    expect(response.status).toBe(200);
    const [sent] = messagesOf(platform);
    expect(await response.json()).toEqual({
      handedOff: true,
      messageId: sent?.id,
      tellCustomer: 'A colleague has the details and will reply in this conversation during opening hours.',
    });
    expect(messagesOf(platform)).toEqual([
      {
        id: sent?.id,
        contactId: 'ct_team',
        channel: 'whatsapp',
        text: `Handoff: a complaint.\nCustomer: Ann Lee, +44 7700 900123.\n${handoff.summary}`,
      },
    ]);
  });

  it('marks an urgent handoff and promises only a reply as soon as possible', async () => {
    const body = (await (await callWith('handoff_to_human', { ...handoff, urgency: 'urgent' })).json()) as {
      tellCustomer: string;
    };
    expect(body.tellCustomer).toContain('as soon as possible');
    expect(messagesOf(platform)[0]?.text.startsWith('URGENT handoff: a complaint.')).toBe(true);
  });

  it('sends through the configured channel, and says when nobody could be told', async () => {
    const response = await callWith('handoff_to_human', handoff, platformEnv({ HANDOFF_CHANNEL: 'telegram' }));
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('handoff_failed');
    expect(error.message).toContain('nobody has been told yet');
    expect(messagesOf(platform)).toEqual([]);
  });

  it('answers 502 when the platform fails, without claiming the team was told', async () => {
    outbound.on('POST', `${PLATFORM}/v1/messages`, () => new Response('oops', { status: 500 }));
    const response = await callWith('handoff_to_human', handoff);
    expect(response.status).toBe(502);
    expect((await errorOf(response)).message).not.toContain('test-platform-key');
  });

  it('answers 503 when the team inbox or the platform is not configured', async () => {
    const noInbox = await callWith('handoff_to_human', handoff, platformEnv({ HANDOFF_CONTACT_ID: undefined }));
    expect(noInbox.status).toBe(503);
    expect((await errorOf(noInbox)).code).toBe('not_configured');
    const noPlatform = await callWith('handoff_to_human', handoff, platformEnv({ PLATFORM_BASE_URL: undefined }));
    // A declared var unset: the runtime answers before the handler runs.
    expect((await errorOf(noPlatform)).code).toBe('not_configured');
    expect(outbound.requests).toEqual([]);
  });

  it.each([
    ['summary', { reason: 'other' }],
    ['summary', { reason: 'other', summary: 'Wants a human.' }],
    ['reason', { summary: handoff.summary }],
    ['reason', { summary: handoff.summary, reason: 'bored' }],
    ['urgency', { ...handoff, urgency: 'asap' }],
    ['customerPhone', { ...handoff, customerPhone: '07700' }],
  ])('answers 422 naming "%s", sending nothing', async (argument, args) => {
    const response = await callWith('handoff_to_human', args);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument })]);
    expect(outbound.requests).toEqual([]);
  });
});

describe('handoff_to_human within a conversation', () => {
  const conversation = { contactId: 'ct_ann', conversationId: 'cv_1', channel: 'whatsapp' };

  it('hands over once when the model calls it twice in one conversation, whatever the second summary says', async () => {
    const first = await callWith('handoff_to_human', { ...handoff, ...conversation });
    const again = await callWith('handoff_to_human', {
      ...handoff,
      summary: `${handoff.summary} She asked again.`,
      ...conversation,
    });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(await first.json());
    expect(messagesOf(platform)).toHaveLength(1);
  });

  it('never sends again in the conversation after a send whose answer was lost', async () => {
    outbound.on('POST', `${PLATFORM}/v1/messages`, () => new Response('oops', { status: 500 }));
    const first = await callWith('handoff_to_human', { ...handoff, ...conversation, conversationId: 'cv_lost' });
    const again = await callWith('handoff_to_human', { ...handoff, ...conversation, conversationId: 'cv_lost' });
    expect((await errorOf(first)).code).toBe('handoff_uncertain');
    expect((await errorOf(again)).code).toBe('handoff_uncertain');
    expect(outbound.requests.filter((r) => r.url.endsWith('/v1/messages'))).toHaveLength(1);
  });

  it('hands over once per conversation: another conversation is another hand-off', async () => {
    await callWith('handoff_to_human', { ...handoff, ...conversation, conversationId: 'cv_2' });
    await callWith('handoff_to_human', { ...handoff, ...conversation, conversationId: 'cv_3' });
    expect(messagesOf(platform)).toHaveLength(2);
  });
});
