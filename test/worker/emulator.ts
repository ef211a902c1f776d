// The local platform (scripts/platform/platform.ts, what `npm run platform` serves) answering the
// Worker's calls to PLATFORM through the outbound mock: the tests' one fake platform. With it, a
// Worker over the project's functions (generated/functions.ts) and an env the test chooses.
import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { functions } from '../../generated/functions.ts';
import { createPlatform, type Platform } from '../../scripts/platform/platform.ts';
import type { ContactRecord } from '../../scripts/platform/state.ts';
import type { Env } from '../../src/env.ts';
import { platformFromEnv } from '../../src/platform/fromEnv.ts';
import { createWorker } from '../../src/worker.ts';
import { keyOf } from './helpers.ts';
import type { Outbound } from './outbound.ts';

export const PLATFORM = 'https://platform.test';
const PLATFORM_KEY = 'test-platform-key';

/** One Business account (WhatsApp connected) at PLATFORM; every API request first waits `delayMs`. */
export const usePlatform = (outbound: Outbound, { delayMs = 0, apiKey = PLATFORM_KEY } = {}): Platform => {
  const platform = createPlatform({
    accounts: [{ plan: 'business', apiKey, channels: ['whatsapp'] }],
    rateLimit: false,
    faults: { slowMs: delayMs },
  });
  outbound.on('*', `${PLATFORM}/`, (request) => platform.fetch(request));
  return platform;
};

const account = (platform: Platform) => platform.state.accounts[0] as Platform['state']['accounts'][number];

/** The account's contacts as the platform holds them: id, name, phone, channel. */
export const contactsOf = (platform: Platform) =>
  [...account(platform).contacts.values()].map(({ id, name, phone, channel }) => ({ id, name, phone, channel }));

/** The messages the account sent: id, contactId, channel, text. */
export const messagesOf = (platform: Platform) =>
  [...account(platform).messages.values()]
    .filter((message) => message.direction === 'outbound')
    .map(({ id, contactId, channel, text }) => ({ id, contactId, channel, text }));

/** Puts a contact in the account as if someone had created it before. */
export const seedContact = (platform: Platform, contact: Pick<ContactRecord, 'id' | 'name' | 'phone' | 'channel'>) => {
  const seq = platform.state.nextSeq++;
  account(platform).contacts.set(contact.id, { ...contact, seq, createdAt: new Date().toISOString() });
};

const worker = createWorker({ functions, platform: platformFromEnv });

/** The test env plus the platform's address and key and the team inbox; `extra` overrides. */
export const platformEnv = (extra: Partial<Env> = {}): Env => ({
  ...(env as Env),
  PLATFORM_BASE_URL: PLATFORM,
  PLATFORM_API_KEY: PLATFORM_KEY,
  HANDOFF_CONTACT_ID: 'ct_team',
  ...extra,
});

/** Calls a function of this Worker as the platform would, with `environment`. */
export const callWith = async (name: string, args: unknown, environment = platformEnv()) =>
  worker.fetch(
    new Request(`https://functions.example.com/functions/${name}?key=${await keyOf(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    }),
    environment,
    createExecutionContext(),
  );
