// The worked example of docs/testing.md, "Testing conversations", for handoff_to_human: a repeat of
// a call in one conversation does not run again (dedupe). The conversation keys are what the
// platform adds beside the arguments.
import { env } from 'cloudflare:workers';
import { conversation, mockOutbound, type Outbound, withEnv } from 'agent-functions/testing';
import { messagesOf, seedContact, usePlatform } from 'agent-functions-cli/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import worker from '../../worker.ts';

let outbound: Outbound;
let platform: ReturnType<typeof usePlatform>;
beforeEach(() => {
  outbound = mockOutbound();
  platform = usePlatform(outbound);
});
afterEach(() => outbound.restore());

describe('a repeat in a conversation', () => {
  it('does not run again: the second hand-off gets the first answer, and the team gets one message', async () => {
    seedContact(platform, { id: 'ct_team', name: 'Team', phone: '+447700900999', channel: 'whatsapp' });
    const handoff = withEnv(worker, { ...env, HANDOFF_CONTACT_ID: 'ct_team' });
    const args = { summary: 'Wants a refund for order 10452.', reason: 'complaint', ...conversation('ct_bo') };
    const first = await handoff.call('handoff_to_human', args);
    const repeat = await handoff.call('handoff_to_human', args);
    expect(repeat.status).toBe(first.status);
    expect(await repeat.json()).toEqual(await first.json());
    expect(messagesOf(platform).filter((message) => message.contactId === 'ct_team')).toHaveLength(1);
  });
});
