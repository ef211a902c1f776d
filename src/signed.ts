// The signature policy, decided here and only here (docs/security.md). The spec's signature covers
// `<timestamp>.<raw body>` and nothing else, and function calls carry no unique id, so:
// - a signature is checked whenever one is presented, and required on every call when the operator
//   sets PLATFORM_SIGNATURE_REQUIRED=true; headers present but empty are a bad signature, not none;
// - the signature covers the body only. A call whose arguments come from the query string (a GET,
//   or a POST with no body) is vouched for by its key, not its signature: it is served like an
//   unsigned call with the same key, unless the operator requires signatures, and then it is
//   refused with a message that says why. A POST with a body takes its arguments from the body
//   only, so its query string changes nothing;
// - replays are bounded by the timestamp tolerance (5 minutes), as Stripe does. There is no
//   seen-signature store: without a unique id it would refuse distinct legitimate calls (two
//   conversations sending identical arguments in the same second, two signed GETs in one second);
// - with a signing secret set, only a signed body names a conversation: the ids of an unsigned
//   call, or of a query string no signature covers, could be anyone's (docs/security.md).
import type { Env } from './env.ts';
import { FunctionError, NOT_FIXABLE, notConfigured } from './errors.ts';
import { KEY_QUERY } from './keys.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from './platform/protocol/contract.ts';
import { verifyWebhook } from './platform/protocol/signature.ts';

/** Whether the call's arguments come from its query string, which no signature covers (the function key is no argument). */
const argumentsInQuery = (request: Request, url: URL, body: string): boolean =>
  (request.method === 'GET' || body.trim() === '') && [...url.searchParams.keys()].some((k) => k !== KEY_QUERY);

const refuse = (message: string) => new FunctionError(401, 'bad_signature', `${message} ${NOT_FIXABLE}`);

/** Whether the operator requires a signature on every call (PLATFORM_SIGNATURE_REQUIRED=true). */
export const signatureRequired = (env: Env): boolean =>
  env.PLATFORM_SIGNATURE_REQUIRED?.trim().toLowerCase() === 'true';

/**
 * Whether the call may name a conversation (docs/platform-contract.md §9): always without
 * PLATFORM_SIGNING_SECRET; with it, only when a verified signature covers the arguments (a signed
 * body). Call it after checkSignature, which has refused a signature that does not verify.
 * @example if (!namesConversation(request, url, env, body)) inv.conversation = undefined
 */
export const namesConversation = (request: Request, url: URL, env: Env, body: string): boolean =>
  !env.PLATFORM_SIGNING_SECRET ||
  (request.headers.get(TIMESTAMP_HEADER) !== null &&
    request.headers.get(SIGNATURE_HEADER) !== null &&
    !argumentsInQuery(request, url, body));

/**
 * Applies the signature policy to a request whose body was read: verifies a presented signature,
 * and when the operator requires signatures refuses an unsigned call and arguments in the query
 * string, which no signature covers (docs/platform-contract.md §4).
 * Undefined when there is nothing to verify, so the common call skips an await.
 * @example await checkSignature(request, url, env, body)
 */
export const checkSignature = (request: Request, url: URL, env: Env, body: string): Promise<void> | undefined => {
  const secret = env.PLATFORM_SIGNING_SECRET;
  const required = signatureRequired(env);
  if (!secret) {
    if (!required) return;
    // Fail closed: the operator asked for signatures, and none can be checked.
    throw notConfigured('the service');
  }
  const timestamp = request.headers.get(TIMESTAMP_HEADER);
  const signature = request.headers.get(SIGNATURE_HEADER);
  if (timestamp === null && signature === null) {
    if (required) throw refuse('This function only accepts signed requests, and this one is not signed.');
    return;
  }
  if (required && argumentsInQuery(request, url, body)) {
    throw refuse(
      'The operator requires every call to be signed, and a signature covers the body only: send the arguments as a JSON body (POST), not in the query string.',
    );
  }
  return verifyWebhook(secret, timestamp, signature, body).then((verdict) => {
    if (verdict !== 'ok') {
      throw refuse(`The request signature is ${verdict === 'stale' ? 'too old or in the future' : 'not valid'}.`);
    }
  });
};
