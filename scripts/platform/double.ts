// The local platform as a test double inside workerd: it answers a Worker's outbound calls to
// PLATFORM_URL through any outbound mock with an `on(method, url, handler)` (agent-functions/testing's
// mockOutbound), so a function's platform calls are checked against the same emulator as sync's.
import { createPlatform, type Platform } from './platform.ts';
import type { ContactRecord } from './state.ts';

/** Where the double answers: set PLATFORM_BASE_URL to it in the test env. */
export const PLATFORM_URL = 'https://platform.test';
/** The API key of the double's one account: set PLATFORM_API_KEY to it in the test env. */
export const PLATFORM_KEY = 'test-platform-key';

/** What usePlatform needs of an outbound mock. */
export interface OutboundRoutes {
  on(method: string, url: string, handler: (request: Request) => Response | Promise<Response>): unknown;
}

/**
 * One Business account (WhatsApp connected) answering at PLATFORM_URL; every API request first waits `delayMs`.
 * @example const platform = usePlatform(mockOutbound()); // then PLATFORM_BASE_URL = PLATFORM_URL
 */
export const usePlatform = (
  outbound: OutboundRoutes,
  { delayMs = 0, apiKey = PLATFORM_KEY }: { delayMs?: number; apiKey?: string } = {},
): Platform => {
  const platform = createPlatform({
    accounts: [{ plan: 'business', apiKey, channels: ['whatsapp'] }],
    rateLimit: false,
    faults: { slowMs: delayMs },
  });
  outbound.on('*', `${PLATFORM_URL}/`, (request) => platform.fetch(request));
  return platform;
};

const account = (platform: Platform) => platform.state.accounts[0] as Platform['state']['accounts'][number];

/** The account's contacts as the platform holds them: id, name, phone, channel. */
export const contactsOf = (platform: Platform): Array<Pick<ContactRecord, 'id' | 'name' | 'phone' | 'channel'>> =>
  [...account(platform).contacts.values()].map(({ id, name, phone, channel }) => ({ id, name, phone, channel }));

/** The messages the account sent: id, contactId, channel, text. */
export const messagesOf = (
  platform: Platform,
): Array<{ id: string; contactId: string; channel: string; text: string }> =>
  [...account(platform).messages.values()]
    .filter((message) => message.direction === 'outbound')
    .map(({ id, contactId, channel, text }) => ({ id, contactId, channel, text }));

/** Puts a contact in the account as if someone had created it before. */
export const seedContact = (
  platform: Platform,
  contact: Pick<ContactRecord, 'id' | 'name' | 'phone' | 'channel'>,
): void => {
  const seq = account(platform).nextSeq++;
  account(platform).contacts.set(contact.id, { ...contact, seq, createdAt: new Date().toISOString() });
};
