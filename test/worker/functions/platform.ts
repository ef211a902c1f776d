// A stand-in for the messaging platform's contacts and messages endpoints, on the outbound mock,
// and a Worker configured to use it (the tests' own env, so other tests keep theirs).

import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import capture_lead from '../../../functions/capture_lead.ts';
import handoff_to_human from '../../../functions/handoff_to_human.ts';
import type { Env } from '../../../src/env.ts';
import { platformFromEnv } from '../../../src/platform/fromEnv.ts';
import { createWorker } from '../../../src/worker.ts';
import { keyOf } from '../helpers.ts';
import type { Outbound } from '../outbound.ts';

export const PLATFORM = 'https://platform.test';

/** Contacts and messages as the fake platform holds them. */
export interface FakePlatform {
  contacts: Array<{ id: string; name: string; phone: string; channel: string }>;
  messages: Array<{ id: string; contactId: string; channel: string; text: string }>;
}

/** Routes /v1/contacts and /v1/messages of PLATFORM to an in-memory account; creating takes `delayMs`. */
export const fakePlatform = (outbound: Outbound, delayMs = 0): FakePlatform => {
  const state: FakePlatform = { contacts: [], messages: [] };
  outbound
    .on('GET', `${PLATFORM}/v1/contacts`, () => Response.json({ data: state.contacts }))
    .on('POST', `${PLATFORM}/v1/contacts`, async (request) => {
      const input = (await request.json()) as Omit<FakePlatform['contacts'][number], 'id'>;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      const contact = { id: `ct_${state.contacts.length + 1}`, ...input };
      state.contacts.push(contact);
      return Response.json(contact, { status: 201 });
    })
    .on('POST', `${PLATFORM}/v1/messages`, async (request) => {
      const input = (await request.json()) as Omit<FakePlatform['messages'][number], 'id'>;
      if (input.channel !== 'whatsapp') return Response.json({ error: 'channel_not_connected' }, { status: 422 });
      const message = { id: `msg_${state.messages.length + 1}`, ...input };
      state.messages.push(message);
      return Response.json(message, { status: 201 });
    });
  return state;
};

const worker = createWorker({ functions: { capture_lead, handoff_to_human }, platform: platformFromEnv }).fetch;

/** The test env plus the platform's address and key and the team inbox; `extra` overrides. */
export const platformEnv = (extra: Partial<Env> = {}): Env => ({
  ...(env as Env),
  PLATFORM_BASE_URL: PLATFORM,
  PLATFORM_API_KEY: 'test-platform-key',
  HANDOFF_CONTACT_ID: 'ct_team',
  ...extra,
});

/** Calls a function of this Worker as the platform would, with `environment`. */
export const callWith = async (name: string, args: unknown, environment = platformEnv()) =>
  worker(
    new Request(`https://functions.example.com/functions/${name}?key=${await keyOf(name)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
    }),
    environment,
    createExecutionContext(),
  );
