// The relay of the account store (src/accounts/admin.ts): /accounts/<name>/platform/v1/... forwards
// one platform request with the account's stored key, so sync, `npm run accounts -- remove` and
// `npm run secrets -- check` reach a stored-key account without the key ever leaving the Worker.
import { readBody } from '../args.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { API_KEY_HEADER, API_KEY_QUERY } from '../platform/protocol/contract.ts';
import { addressProblem } from './address.ts';
import { notStored, readStoredAccount } from './store.ts';

/** Largest body of a PUT to the store, and of a request relayed to the platform. */
export const ACCOUNTS_BODY_LIMIT: number = 64 * 1024;
/** Longest wait for a relayed platform answer. */
const RELAY_TIMEOUT_MS = 15_000;
/** What the relay passes to the platform: what sync writes and `secrets check` reads, nothing else (no signing secrets). */
const RELAYED = /^\/v1\/(?:custom-functions|webhooks)(?:\/[A-Za-z0-9._~-]{1,256})?$/;

/** Forwards `request` (for platform `path`) to account `name`'s platform with its stored key. */
export const relay = async (
  request: Request,
  env: Env,
  name: string,
  path: string,
  url: URL,
  requestId: string,
): Promise<Response> => {
  if (!RELAYED.test(path)) {
    throw new FunctionError(
      404,
      'not_relayed',
      'The relay passes only /v1/custom-functions and /v1/webhooks (and one record of each).',
    );
  }
  const stored = await readStoredAccount(env, name);
  if (!stored) throw notStored(name);
  const problem = stored.baseUrl ? addressProblem(stored.baseUrl, env) : undefined;
  if (problem) {
    throw new FunctionError(
      409,
      'address_refused',
      `The stored address of account "${name}" is refused: ${problem} Store it again with its key (npm run accounts -- rotate ${name}).`,
    );
  }
  const base = (stored.baseUrl ?? env.PLATFORM_BASE_URL ?? '').replace(/\/+$/, '');
  if (!base) {
    throw new FunctionError(
      503,
      'not_configured',
      `Account "${name}" has no base address: store one with --base-url, or set PLATFORM_BASE_URL.`,
    );
  }
  const target = new URL(`${base}${path}`);
  for (const [key, value] of url.searchParams) target.searchParams.append(key, value);
  const headers: Record<string, string> = { accept: 'application/json' };
  const type = request.headers.get('content-type');
  if (type) headers['content-type'] = type;
  const placement = stored.keyPlacement ?? 'header';
  if (placement === 'header') headers[API_KEY_HEADER] = stored.apiKey;
  else if (placement === 'bearer') headers.authorization = `Bearer ${stored.apiKey}`;
  else target.searchParams.set(API_KEY_QUERY, stored.apiKey);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? await readBody(request, ACCOUNTS_BODY_LIMIT, Date.now() + 10_000) : undefined;
  let answer: Response;
  try {
    answer = await fetch(target, {
      method: request.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
    });
  } catch {
    throw new FunctionError(502, 'platform_unreachable', `The platform of account "${name}" did not answer.`);
  }
  const out: Record<string, string> = { 'x-request-id': requestId, 'cache-control': 'no-store' };
  for (const header of ['content-type', 'retry-after']) {
    const value = answer.headers.get(header);
    if (value) out[header] = value;
  }
  // A next page the platform names by its own address goes through the relay too.
  const link = answer.headers.get('link');
  if (link) out.link = link.replaceAll(base, `${url.origin}/accounts/${name}/platform`);
  return new Response(answer.body, { status: answer.status, headers: out });
};
