// A refused or failed answer -> the PlatformError subclass a caller can act on, with a message that
// says what to do. Nothing from the request (the key, the body) goes into a message.
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PlanError,
  PlatformError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './errors.ts';
import { printable } from './printable.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What the platform said about its refusal, from `{error: {code, message}}`, `{code, message}` or `{error: "..."}`. */
export const refusalOf = (body: unknown): { code?: string; message?: string; details?: unknown } => {
  if (!isObject(body)) return typeof body === 'string' && body ? { message: printable(body, 300) } : {};
  const inner = isObject(body.error) ? body.error : body;
  const message = typeof inner.message === 'string' ? inner.message : typeof body.error === 'string' ? body.error : '';
  return {
    ...(typeof inner.code === 'string' ? { code: printable(inner.code, 100) } : {}),
    ...(message ? { message: printable(message) } : {}),
    ...(inner.details === undefined ? {} : { details: inner.details }),
  };
};

/** Where an error happened and what came back. */
export interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
  retryAfterMs?: number;
  /** Attempts made, when more than one. */
  attempts: number;
  /** The request was not idempotent, so a 5xx leaves it unknown whether it was applied. */
  ambiguous: boolean;
}

/**
 * The error for a non-2xx answer.
 * @example throw errorFromAnswer({ method: 'GET', path: '/v1/contacts', status: 401, body, attempts: 1, ambiguous: false })
 */
export const errorFromAnswer = (answer: Answer): PlatformError => {
  const { method, path, status, attempts } = answer;
  const said = refusalOf(answer.body);
  const where = `${method} ${path} answered ${status}`;
  const because = said.message ? `: ${said.message}` : '';
  const base = { status, method, path, details: said.details };
  if (status === 401) {
    return new AuthenticationError(
      `${where}${because}. The API key was refused: check PLATFORM_API_KEY (a current key of this account; a leaked key is rotated through api-keys) and that it is sent the way the platform expects (X-API-Key by default).`,
      { ...base, code: said.code ?? 'unauthorized' },
    );
  }
  if (status === 403) {
    return new PlanError(
      `${where}${because}. The account's plan does not allow this call: per the platform's spec, 403 means the plan lacks API access. Check the plan (Business, Agency and Agency Unlimited include API access); this is not a defect of the request.`,
      { ...base, code: said.code ?? 'plan_without_api_access' },
    );
  }
  if (status === 404) {
    return new NotFoundError(
      `${where}${because}. Nothing exists there: check the identifier, and that PLATFORM_BASE_URL is the account's base address (without /v1).`,
      { ...base, code: said.code ?? 'not_found' },
    );
  }
  if (status === 409) {
    return new ConflictError(
      `${where}${because}. It already exists: list to find the existing record and update it instead of creating it again.`,
      { ...base, code: said.code ?? 'conflict' },
    );
  }
  if (status === 400 || status === 422) {
    return new ValidationError(`${where}${because}. Fix the request payload and send it again.`, {
      ...base,
      code: said.code ?? 'invalid_request',
    });
  }
  if (status === 429) {
    const wait =
      answer.retryAfterMs === undefined ? '' : ` The platform asks to wait ${Math.ceil(answer.retryAfterMs / 1000)} s.`;
    return new RateLimitError(
      `${where} after ${attempts} attempt(s): the per-key rate limit is exceeded.${wait} Back off and retry later, or send fewer requests.`,
      {
        ...base,
        code: said.code ?? 'rate_limited',
        ...(answer.retryAfterMs === undefined ? {} : { retryAfterMs: answer.retryAfterMs }),
      },
    );
  }
  if (status >= 500) {
    const next = answer.ambiguous
      ? ' It may or may not have been applied: list before sending it again, so nothing is created twice.'
      : ' Try again later.';
    return new ServerError(`${where}${because} after ${attempts} attempt(s); the platform failed.${next}`, {
      ...base,
      code: said.code ?? 'server_error',
      retryable: !answer.ambiguous,
      ambiguous: answer.ambiguous,
    });
  }
  if (status >= 300 && status < 400) {
    return new PlatformError(
      `${where} (a redirect). The client does not follow redirects, so the key goes nowhere else: set PLATFORM_BASE_URL to the final address.`,
      { ...base, code: 'redirect' },
    );
  }
  return new PlatformError(`${where}${because}.`, { ...base, code: said.code ?? `http_${status}` });
};
