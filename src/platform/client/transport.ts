// One request to the platform: the key in its placement, a per-attempt timeout, the caller's abort
// signal, and retries per docs/platform-contract.md §5 (429 for every method; 5xx and network errors only for
// GET, PATCH and DELETE, since a POST without a clear answer may already have been applied).
import { API_KEY_HEADER, API_KEY_QUERY, type KeyPlacement } from '../protocol/contract.ts';
import { NetworkError, PlatformError } from './errors.ts';
import { backoffDelay, parseRetryAfter, type RetryOptions, sleep } from './retry.ts';
import { errorFromAnswer } from './toError.ts';

/** One attempt, as `onRequest` reports it (for counting requests in sync and benchmarks). */
export interface RequestInfo {
  method: string;
  /** The path only: never the query string, which may carry the key. */
  path: string;
  status: number | 'network-error';
  attempt: number;
}

/** A retry about to happen, as `onRetry` reports it: what failed, which attempt comes next, after how long. */
export interface RetryInfo {
  method: string;
  path: string;
  /** The attempt that will be sent next (2 for the first retry). */
  attempt: number;
  /** Attempts allowed in all. */
  of: number;
  waitMs: number;
  /** What went wrong: `answered 503`, `answered 429`, `no answer (ECONNREFUSED)`, `no answer within 10000 ms`. */
  reason: string;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  keyPlacement: KeyPlacement;
  fetch: typeof fetch;
  timeoutMs: number;
  /** Cap of one answer's body in bytes; a larger one is not read (ResponseTooLargeError). */
  maxResponseBytes: number;
  retry: Required<RetryOptions>;
  signal?: AbortSignal;
  onRequest?: (info: RequestInfo) => void;
  onRetry?: (info: RetryInfo) => void;
  random?: () => number;
  /** The wait between attempts (tests replace it to run without waiting). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** A successful answer. */
export interface Answered {
  status: number;
  headers: Headers;
  body: unknown;
  /** The url that was requested, without the key, for resolving relative `next` links. */
  url: URL;
  /** Bytes of the body as received. */
  bytes: number;
}

export interface CallOptions {
  body?: unknown;
  /** Statuses that mean success when they answer a retry (a DELETE whose first answer was lost: 404). */
  successOnRetry?: number[];
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PATCH', 'DELETE', 'PUT']);

/** The account's base address without a trailing slash or /v1 (every path already starts with /v1/). */
export const normaliseBaseUrl = (baseUrl: string): string => {
  if (!URL.canParse(baseUrl)) {
    throw new TypeError(`PLATFORM_BASE_URL must be an absolute URL such as https://api.example.com, not "${baseUrl}"`);
  }
  return baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
};

/** A body was larger than the cap; whatever arrived is dropped. */
const TOO_LARGE = Symbol('too large');

/** The body as text, read chunk by chunk and abandoned as soon as it passes `limit` bytes. */
const readCapped = async (
  response: Response,
  limit: number,
): Promise<{ text: string; bytes: number } | typeof TOO_LARGE> => {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > limit || !response.body) {
    await response.body?.cancel();
    return declared > limit ? TOO_LARGE : { text: '', bytes: 0 };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), bytes };
    bytes += value.byteLength;
    if (bytes > limit) {
      await reader.cancel();
      return TOO_LARGE;
    }
    text += decoder.decode(value, { stream: true });
  }
};

/** `4 MiB`, `512 KiB` or `300 bytes`, for messages. */
export const formatBytes = (bytes: number): string =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / (1024 * 1024)} MiB`
    : bytes >= 1024 && bytes % 1024 === 0
      ? `${bytes / 1024} KiB`
      : `${bytes} bytes`;

/** The error of an answer over the cap: never retried, since the same answer would come back. */
export const tooLarge = (method: string, path: string, status: number, limit: number, what = 'answer'): PlatformError =>
  new PlatformError(
    `${method} ${path}: the platform's ${what} is larger than ${formatBytes(limit)}; stopped reading it. No platform answer should be this large: check PLATFORM_BASE_URL, or raise the limit (maxResponseBytes; sync: --max-response-mib).`,
    { status, code: 'response_too_large', method, path },
  );

/** The system error code under a fetch failure (ECONNREFUSED, ENOTFOUND, ...), when there is one. */
const causeCode = (error: unknown): string | undefined => {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z_]+$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
};

const parseBody = (text: string): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** What one request sends: its url (with the key when it travels in the query), headers and body. */
const requestOf = (options: TransportOptions, url: URL, body: unknown) => {
  const sent = new URL(url);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.keyPlacement === 'header') headers[API_KEY_HEADER] = options.apiKey;
  else if (options.keyPlacement === 'bearer') headers.authorization = `Bearer ${options.apiKey}`;
  else sent.searchParams.set(API_KEY_QUERY, options.apiKey);
  if (body === undefined) return { sent, headers, payload: undefined };
  headers['content-type'] = 'application/json';
  return { sent, headers, payload: JSON.stringify(body) };
};

/**
 * A function that sends one request (retrying as the contract allows) and returns the answer or
 * throws a PlatformError.
 * @example await createTransport(options)('GET', '/v1/contacts')
 */
export const createTransport = (options: TransportOptions) => {
  const base = normaliseBaseUrl(options.baseUrl);
  const { retry } = options;

  return async (method: string, target: string | URL, call: CallOptions = {}): Promise<Answered> => {
    const url = typeof target === 'string' ? new URL(base + target) : new URL(target);
    const { sent, headers, payload } = requestOf(options, url, call.body);
    const idempotent = IDEMPOTENT.has(method);
    const path = url.pathname;

    for (let attempt = 1; ; attempt++) {
      options.signal?.throwIfAborted();
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
      const canRetry = attempt <= retry.retries;
      let status: number;
      let responseHeaders: Headers;
      let body: unknown;
      let bytes: number;
      try {
        const response = await options.fetch(sent, { method, headers, body: payload, signal, redirect: 'manual' });
        status = response.status;
        responseHeaders = response.headers;
        const read = await readCapped(response, options.maxResponseBytes);
        if (read === TOO_LARGE) {
          options.onRequest?.({ method, path, status, attempt });
          throw tooLarge(method, path, status, options.maxResponseBytes);
        }
        body = parseBody(read.text);
        bytes = read.bytes;
      } catch (error) {
        if (error instanceof PlatformError) throw error;
        if (options.signal?.aborted) throw options.signal.reason;
        options.onRequest?.({ method, path, status: 'network-error', attempt });
        const timedOut = timeout.aborted;
        const code = causeCode(error);
        if (idempotent && canRetry) {
          const waitMs = backoffDelay(attempt, retry, options.random);
          const reason = timedOut ? `no answer within ${options.timeoutMs} ms` : `no answer${code ? ` (${code})` : ''}`;
          options.onRetry?.({ method, path, attempt: attempt + 1, of: retry.retries + 1, waitMs, reason });
          await (options.wait ?? sleep)(waitMs, options.signal);
          continue;
        }
        const what = timedOut
          ? `no answer within ${options.timeoutMs} ms`
          : `could not reach ${url.origin}${code ? ` (${code})` : ''}`;
        const next = idempotent
          ? 'Check PLATFORM_BASE_URL and the network, then try again.'
          : 'It may or may not have been applied: list before sending it again, so nothing is created twice.';
        throw new NetworkError(`${method} ${path}: ${what} after ${attempt} attempt(s). ${next}`, {
          status: 0,
          code: timedOut ? 'timeout' : 'network_error',
          retryable: idempotent,
          ambiguous: !idempotent,
          method,
          path,
          cause: error,
          timedOut,
        });
      }
      options.onRequest?.({ method, path, status, attempt });
      if ((status >= 200 && status < 300) || (attempt > 1 && call.successOnRetry?.includes(status))) {
        return { status, headers: responseHeaders, body, url, bytes };
      }
      const retryAfterMs = parseRetryAfter(responseHeaders.get('retry-after'));
      const waitable = retryAfterMs === undefined || retryAfterMs <= retry.maxRetryAfterMs;
      if (canRetry && waitable && (status === 429 || (status >= 500 && idempotent))) {
        const waitMs = retryAfterMs ?? backoffDelay(attempt, retry, options.random);
        const reason = `answered ${status}${status === 429 && retryAfterMs !== undefined ? ' with Retry-After' : ''}`;
        options.onRetry?.({ method, path, attempt: attempt + 1, of: retry.retries + 1, waitMs, reason });
        await (options.wait ?? sleep)(waitMs, options.signal);
        continue;
      }
      throw errorFromAnswer({
        method,
        path,
        status,
        body,
        attempts: attempt,
        ambiguous: status >= 500 && !idempotent,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
  };
};

/** Sends one request and returns the answer; the client's only way out. */
export type Transport = ReturnType<typeof createTransport>;
