// Requests signed the platform's way: verify the signature, then refuse a replay of it.
import type { Env } from './env.ts';
import { FunctionError } from './errors.ts';
import { verifyWebhook } from './platform/signature.ts';
import { isFirstUse } from './replay.ts';

/**
 * When PLATFORM_SIGNING_SECRET is set and the request carries the platform's signature headers,
 * the signature must verify and must not have been seen before (CONTRACT section 4).
 */
export const checkSignature = async (request: Request, env: Env, body: string) => {
  const timestamp = request.headers.get('x-webhook-timestamp');
  const signature = request.headers.get('x-webhook-signature');
  if (!env.PLATFORM_SIGNING_SECRET || (!timestamp && !signature)) return;
  const verdict = await verifyWebhook(env.PLATFORM_SIGNING_SECRET, timestamp, signature, body);
  if (verdict !== 'ok') {
    throw new FunctionError(
      401,
      'bad_signature',
      `The request signature is ${verdict === 'stale' ? 'too old or in the future' : 'not valid'}. This is a configuration problem, not something the customer can fix.`,
    );
  }
  if (!env.REPLAY_GUARD || !timestamp || !signature) return;
  let first: boolean;
  try {
    first = await isFirstUse(env.REPLAY_GUARD, signature, timestamp);
  } catch {
    // Fail closed: without the seen-signature store a replay cannot be told from a first use.
    throw new FunctionError(
      503,
      'unavailable',
      'This function is not available right now. Tell the customer you cannot do this at the moment and offer to try again later.',
    );
  }
  if (!first) {
    throw new FunctionError(
      401,
      'replayed',
      'This signed request was already received once and is refused as a replay. This is a configuration problem, not something the customer can fix.',
    );
  }
};
