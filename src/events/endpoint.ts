// POST /events (or /events/<account>): verify with that account's webhook secret, then queue,
// then answer. A delivery that does not verify is refused with 401 before its body is parsed or
// any handler is looked at; one that verifies is answered as soon as the queue holds it, so a slow
// handler never makes the platform deliver it again.

import type { AccessibleAccount } from '../accounts/access.ts';
import { readBody } from '../args.ts';
import { DEFAULT_BODY_LIMIT } from '../define.ts';
import { FunctionError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../platform/protocol/contract.ts';
import { macMatches, signatureParts } from '../platform/protocol/signature.ts';
import { jsonResponse } from '../respond.ts';
import { normalizeOrigin } from '../url.ts';
import { deliveryIdOf, envelopeOf, type QueuedDelivery } from './delivery.ts';
import type { EventsEnv as Env } from './env.ts';
import { SecretsRevoked, SecretsUnavailable, signingSecrets } from './secrets.ts';

/** How long a delivery's body may take to arrive: a slow sender cannot hold the endpoint open. */
const BODY_DEADLINE_MS = 10_000;

/** The url of an account's webhook at `path`: under FUNCTIONS_BASE_URL when the Worker knows it, else its own origin. */
export const eventsUrlOf = (request: Request, env: Env, path: string): string =>
  `${normalizeOrigin(env.FUNCTIONS_BASE_URL || new URL(request.url).origin)}${path}`;

const refuse = (log: Logger, reason: string): never => {
  log.warn('delivery_refused', { reason });
  throw new FunctionError(401, 'bad_signature', `The delivery is refused: ${reason}.`);
};

const unavailable = (log: Logger, error: unknown): never => {
  log.error('events_unavailable', { reason: error instanceof Error ? error.message : String(error) });
  throw new FunctionError(503, 'events_unavailable', 'Deliveries cannot be accepted right now; deliver again later.', {
    headers: { 'retry-after': '30' },
  });
};

/** Whether any of the account's secrets signed the body, reading the secrets again once if none did. */
const verified = async (
  request: Request,
  env: Env,
  account: AccessibleAccount,
  path: string,
  body: string,
  log: Logger,
): Promise<boolean> => {
  const parts = signatureParts(request.headers.get(TIMESTAMP_HEADER), request.headers.get(SIGNATURE_HEADER));
  if (parts.verdict === 'stale') refuse(log, 'the timestamp is more than 5 minutes away from now');
  if (parts.verdict !== 'ok') return refuse(log, 'the signature is malformed');
  const eventsUrl = eventsUrlOf(request, env, path);
  const matchesAny = async (secrets: string[]) => {
    for (const secret of secrets) if (await macMatches(secret, parts, body)) return true;
    return false;
  };
  try {
    const known = await signingSecrets(account, eventsUrl, { log });
    if (await matchesAny(known.secrets)) return true;
    // A rotation this isolate has not seen yet: ask the platform (throttled), then check again.
    const again = await signingSecrets(account, eventsUrl, { refresh: true, log });
    if (await matchesAny(again.secrets)) return true;
    // Neither answer came from the platform just now (the refresh was throttled): the signature may
    // be a new secret's, so the platform is asked to deliver again rather than told it is forged.
    if (!known.fresh && !again.fresh) {
      return unavailable(log, new SecretsUnavailable('a signature no known secret made, and no refresh allowed yet'));
    }
    return false;
  } catch (error) {
    if (error instanceof SecretsRevoked) return refuse(log, 'the platform holds no signing secret for this webhook');
    if (error instanceof SecretsUnavailable) return unavailable(log, error);
    throw error;
  }
};

/**
 * Refuses what cannot be a delivery (not a POST, or unsigned) before its account is looked up, so
 * such requests cost no look-up at all.
 */
export const refuseUndeliverable = (request: Request, log: Logger): void => {
  if (request.method !== 'POST') {
    throw new FunctionError(405, 'method_not_allowed', 'Deliveries are POSTed.', { headers: { Allow: 'POST' } });
  }
  if (!request.headers.has(TIMESTAMP_HEADER) || !request.headers.has(SIGNATURE_HEADER)) {
    refuse(log, 'it is not signed (X-Webhook-Timestamp and X-Webhook-Signature are required)');
  }
};

/**
 * Answers one delivery to `account`'s `path` (refuseUndeliverable passed it): 401 unless signed by that account's webhook secret, 202
 * once queued, 200 for a type without a handler (acknowledged, logged, never retried).
 */
export const receiveDelivery = async (
  request: Request,
  env: Env,
  options: { types: ReadonlySet<string>; account: AccessibleAccount; path: string; log: Logger; requestId: string },
): Promise<Response> => {
  const { account, path, log, requestId } = options;
  const body = await readBody(request, DEFAULT_BODY_LIMIT, Date.now() + BODY_DEADLINE_MS);
  if (!(await verified(request, env, account, path, body, log)))
    refuse(log, 'the signature does not match the signing secret');
  const envelope = envelopeOf(body);
  if (!envelope.ok) {
    log.error('delivery_malformed', { problem: envelope.problem });
    throw new FunctionError(400, 'malformed_delivery', `The delivery is not an event: ${envelope.problem}.`);
  }
  const { type } = envelope;
  const deliveryId = await deliveryIdOf(envelope.id, request.headers.get(SIGNATURE_HEADER) ?? '', body);
  if (!options.types.has(type)) {
    log.warn('event_unknown_type', { type, deliveryId });
    return jsonResponse({ ignored: true, type, reason: 'no handler for this event type' }, 200, requestId);
  }
  if (!env.EVENTS_QUEUE) return unavailable(log, new Error('the EVENTS_QUEUE binding is missing (wrangler.toml)'));
  const queued: QueuedDelivery = { type, deliveryId, body, receivedAt: Date.now(), account: account.account.name };
  try {
    await env.EVENTS_QUEUE.send(queued, { contentType: 'json' });
  } catch (error) {
    return unavailable(log, error);
  }
  log.info('event_queued', { type, deliveryId });
  return jsonResponse({ accepted: true, type, deliveryId }, 202, requestId);
};
