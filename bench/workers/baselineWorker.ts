// The baseline Workers' fetch handler: the quote function written by hand, without the framework,
// doing the same work as the project's Worker for a POST: key from ?key= (or its header forms)
// checked by HMAC with a cached Web Crypto key, a streamed body under the same 64 KiB limit,
// JSON.parse, the same envelope and stringly-number rules, validation (by hand or by zod, as the
// entry chooses), per-field 422s, X-Request-Id on every answer and one JSON log line per call.
// Nothing here is imported by src/.
import { BILLING, NOTES_MAX, PLANS, QUOTE_FUNCTION, type QuoteArgs, quote, SEATS } from './quote.ts';

/** The one binding the baseline reads. */
export interface BaselineEnv {
  FUNCTIONS_SECRET?: string;
}

const BODY_LIMIT = 64 * 1024;
const PATH = `/functions/${QUOTE_FUNCTION}`;
const ENVELOPES = ['arguments', 'args', 'parameters', 'input'];
// zod 4's email pattern, so both Workers accept and refuse the same addresses.
const EMAIL = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;
const encoder = new TextEncoder();

// Importing a key costs more than the HMAC itself: import once per isolate, as src/keys.ts does.
let cachedKey: { secret: string; key: Promise<CryptoKey> } | undefined;
const hmacKey = (secret: string): Promise<CryptoKey> => {
  if (cachedKey?.secret !== secret) {
    const key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
      'verify',
    ]);
    cachedKey = { secret, key };
  }
  return cachedKey.key;
};

const answer = (body: unknown, status: number, requestId: string): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': requestId,
      'cache-control': 'no-store',
    },
  });

const refuse = (status: number, code: string, message: string, requestId: string, details?: unknown): Response =>
  answer({ error: { code, message, ...(details ? { details } : {}), requestId } }, status, requestId);

const keyMatches = async (secret: string, presented: string): Promise<boolean> => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(presented)) return false;
  const binary = atob(presented.replaceAll('-', '+').replaceAll('_', '/'));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return crypto.subtle.verify('HMAC', await hmacKey(secret), bytes, encoder.encode(`function:${QUOTE_FUNCTION}`));
};

/** The body as text, or undefined when it is over the limit (checked while streaming). */
const readBody = async (request: Request): Promise<string | undefined> => {
  if (Number(request.headers.get('content-length')) > BODY_LIMIT) return undefined;
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > BODY_LIMIT) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Validated arguments, or one message per wrong field. */
export type Checked = { args: QuoteArgs } | { problems: { argument: string; problem: string }[] };

/** Turns the raw arguments (seats already coerced from a numeric string) into a verdict. */
export type Validate = (raw: Record<string, unknown>) => Checked | Promise<Checked>;

/** `"12"` -> 12 where seats is concerned, as the project coerces stringly numbers. */
const coerceSeats = (raw: Record<string, unknown>): Record<string, unknown> =>
  typeof raw.seats === 'string' && NUMBER.test(raw.seats) ? { ...raw, seats: Number(raw.seats) } : raw;

/** The checks of bench/workers/quoteSchema.ts by hand. */
export const validateByHand: Validate = (raw) => {
  const problems: { argument: string; problem: string }[] = [];
  const { plan, seats, billing = 'monthly', email, notes } = raw;
  if (!PLANS.includes(plan as QuoteArgs['plan']))
    problems.push({ argument: 'plan', problem: `"plan" must be one of ${PLANS.join(', ')}` });
  if (typeof seats !== 'number' || !Number.isInteger(seats) || seats < SEATS.min || seats > SEATS.max)
    problems.push({ argument: 'seats', problem: `"seats" must be a whole number from ${SEATS.min} to ${SEATS.max}` });
  if (!BILLING.includes(billing as QuoteArgs['billing']))
    problems.push({ argument: 'billing', problem: `"billing" must be one of ${BILLING.join(', ')}` });
  if (typeof email !== 'string' || !EMAIL.test(email))
    problems.push({ argument: 'email', problem: '"email" must be an email address, e.g. name@example.com' });
  if (notes !== undefined && (typeof notes !== 'string' || notes.length > NOTES_MAX))
    problems.push({ argument: 'notes', problem: `"notes" must be text of at most ${NOTES_MAX} characters` });
  if (problems.length > 0) return { problems };
  return { args: { plan, seats, billing, email, notes } as QuoteArgs };
};

/**
 * How a valid call is answered: by default the quote itself; the deduplicating baseline
 * (baselineDedupe.ts) claims the call in a Durable Object first and stores the answer after.
 */
export type AnswerOf = (
  args: QuoteArgs,
  body: Record<string, unknown>,
  env: BaselineEnv,
  ctx: ExecutionContext,
) => unknown | Promise<unknown>;

const quoteOf: AnswerOf = (args) => quote(args);

const handle = async (
  request: Request,
  env: BaselineEnv,
  ctx: ExecutionContext,
  requestId: string,
  validate: Validate,
  answerOf: AnswerOf,
): Promise<Response> => {
  const url = new URL(request.url);
  if (url.pathname !== PATH) return refuse(404, 'unknown_function', 'There is no such function.', requestId);
  if (request.method !== 'POST') return refuse(405, 'method_not_allowed', 'Call this function with POST.', requestId);
  const secret = env.FUNCTIONS_SECRET;
  if (!secret) return refuse(503, 'not_configured', 'The service is not configured.', requestId);
  const key =
    url.searchParams.get('key') ??
    request.headers.get('x-function-key') ??
    /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
  if (!key || !(await keyMatches(secret, key)))
    return refuse(401, 'unauthorized', 'The function key is missing or wrong.', requestId);
  let text: string | undefined;
  try {
    text = await readBody(request);
  } catch {
    return refuse(400, 'malformed_body', 'The request body is not valid UTF-8 text.', requestId);
  }
  if (text === undefined) return refuse(413, 'body_too_large', `The body is over ${BODY_LIMIT} bytes.`, requestId);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return refuse(400, 'malformed_body', 'The request body is not valid JSON.', requestId);
  }
  if (!isObject(body)) return refuse(400, 'malformed_body', 'The request body must be a JSON object.', requestId);
  const envelopes = ENVELOPES.filter((name) => Object.hasOwn(body, name));
  const inner = envelopes.length === 1 ? body[envelopes[0] as string] : undefined;
  const checked = await validate(coerceSeats(isObject(inner) ? inner : body));
  if ('problems' in checked) {
    const message = `The function was not called because ${checked.problems.map((p) => p.problem).join('; ')}. Then call it again.`;
    return refuse(422, 'invalid_arguments', message, requestId, checked.problems);
  }
  return answer(await answerOf(checked.args, body, env, ctx), 200, requestId);
};

/**
 * The baseline Worker with `validate` as its argument checks.
 * @example export default createBaselineWorker(validateByHand)
 */
export const createBaselineWorker = (validate: Validate, answerOf: AnswerOf = quoteOf) => ({
  async fetch(request: Request, env: BaselineEnv, ctx: ExecutionContext): Promise<Response> {
    const given = request.headers.get('x-request-id');
    const requestId = given && /^[A-Za-z0-9._:-]{8,64}$/.test(given) ? given : crypto.randomUUID();
    const started = Date.now();
    const response = await handle(request, env, ctx, requestId, validate, answerOf);
    const status = response.status;
    const outcome = status === 200 ? 'ok' : status >= 500 ? 'error' : 'refused';
    // The same one structured line per call that the project's logger writes.
    // biome-ignore lint/suspicious/noConsole: the baseline has no logger module by design
    console.log(
      JSON.stringify({
        level: 'info',
        event: 'invocation',
        function: QUOTE_FUNCTION,
        requestId,
        outcome,
        status,
        durationMs: Date.now() - started,
        time: new Date().toISOString(),
      }),
    );
    return response;
  },
});
