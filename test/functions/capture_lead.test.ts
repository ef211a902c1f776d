import { reset } from 'cloudflare:test';
import { errorOf, mockOutbound, type Outbound } from 'agent-functions/testing';
import type { Platform } from 'agent-functions-cli/platform';
import { contactsOf, PLATFORM_URL as PLATFORM, seedContact, usePlatform } from 'agent-functions-cli/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callWith, platformEnv } from '../helpers.ts';

interface Lead {
  contactId: string;
  newContact: boolean;
  qualification: string;
  unknown: string[];
  nextStep: string;
  summary: string;
}

const ann = { name: 'Ann Lee', phone: '+44 7700 900123', need: 'A chatbot for our three clinics' };

let outbound: Outbound;
let platform: Platform;
beforeEach(async () => {
  await reset();
  outbound = mockOutbound();
  platform = usePlatform(outbound, { delayMs: 20 });
});
afterEach(() => outbound.restore());

const capture = async (args: Record<string, unknown>) => {
  const response = await callWith('capture_lead', args);
  expect(response.status).toBe(200);
  return (await response.json()) as Lead;
};

describe('capture_lead', () => {
  it('creates the contact on the platform and calls a lead with budget and a near start hot', async () => {
    const lead = await capture({ ...ann, monthlyBudget: 2000, timeline: 'this_month' });
    expect(lead).toMatchObject({ newContact: true, qualification: 'hot', unknown: [] });
    expect(lead.nextStep).toContain('check_availability');
    expect(contactsOf(platform)).toEqual([
      { id: lead.contactId, name: 'Ann Lee', phone: '+447700900123', channel: 'whatsapp' },
    ]);
    expect(outbound.requests.find((r) => r.method === 'POST')?.headers.get('x-api-key')).toBe('test-platform-key');
  });

  it('reuses the existing contact with the same phone number however it is written', async () => {
    seedContact(platform, { id: 'ct_7', name: 'Ann', phone: '+447700900123', channel: 'whatsapp' });
    const lead = await capture({ ...ann, phone: '+44 (7700) 900-123' });
    expect(lead).toMatchObject({ contactId: 'ct_7', newContact: false });
    expect(contactsOf(platform)).toHaveLength(1);
  });

  it('creates one contact when the same lead arrives twice at once', async () => {
    const [a, b] = await Promise.all([capture(ann), capture(ann)]);
    expect(contactsOf(platform)).toHaveLength(1);
    expect(a.contactId).toBe(b.contactId);
    expect([a.newContact, b.newContact].sort()).toEqual([false, true]);
    expect(outbound.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it.each([
    [{ monthlyBudget: 2000, timeline: 'later' }, 'warm', []],
    [{ monthlyBudget: 2000 }, 'warm', ['when they want to start']],
    [{ timeline: 'now' }, 'warm', ['their monthly budget']],
    [{}, 'warm', ['their monthly budget', 'when they want to start']],
    [{ monthlyBudget: 100, timeline: 'now' }, 'cold', []],
    [{ timeline: 'later' }, 'cold', ['their monthly budget']],
  ])('qualifies %o as %s, listing what is still unknown', async (facts, tier, unknown) => {
    const lead = await capture({ ...ann, ...facts });
    expect(lead.qualification).toBe(tier);
    expect(lead.unknown).toEqual(unknown);
    if (tier === 'cold') expect(lead.nextStep).toContain('Do not push');
    if (tier === 'warm' && unknown.length) expect(lead.nextStep).toContain(`Still unknown: ${unknown.join(' and ')}`);
  });

  it('answers a polite 502 when the platform fails, saving nothing twice', async () => {
    outbound.on('GET', `${PLATFORM}/v1/contacts`, () => new Response('down', { status: 503 }));
    const response = await callWith('capture_lead', ann);
    expect(response.status).toBe(502);
    const error = await errorOf(response);
    expect(error.code).toBe('platform_unavailable');
    expect(error.message).toContain('Carry on helping the customer');
    expect(error.message).not.toContain('test-platform-key');
    expect(contactsOf(platform)).toEqual([]);
  });

  it('says "do not call again" when the platform refuses the key', async () => {
    outbound.on('GET', `${PLATFORM}/v1/contacts`, () => new Response('no', { status: 401 }));
    const error = await errorOf(await callWith('capture_lead', ann));
    expect(error.message).toContain('do not call this function again');
  });

  it('answers 503 when the platform is not configured (a declared secret unset: the handler never runs)', async () => {
    const response = await callWith('capture_lead', ann, platformEnv({ PLATFORM_API_KEY: undefined }));
    expect(response.status).toBe(503);
    expect((await errorOf(response)).code).toBe('not_configured');
    expect(outbound.requests).toEqual([]);
  });

  it.each([
    ['name', { phone: ann.phone, need: ann.need }],
    ['phone', { name: ann.name, need: ann.need }],
    ['phone', { ...ann, phone: '07700 900123' }],
    ['need', { name: ann.name, phone: ann.phone }],
    ['channel', { ...ann, channel: 'fax' }],
    ['monthlyBudget', { ...ann, monthlyBudget: -5 }],
    ['monthlyBudget', { ...ann, monthlyBudget: 'lots' }],
    ['timeline', { ...ann, timeline: 'soonish' }],
  ])('answers 422 naming "%s", without touching the platform', async (argument, args) => {
    const response = await callWith('capture_lead', args);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).details).toEqual([expect.objectContaining({ argument })]);
    expect(outbound.requests).toEqual([]);
  });
});
