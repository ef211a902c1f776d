// The emulator's own requests (webhook deliveries, calls of functions): bounded in time and size,
// with credentials redacted from anything it reports.
import { webhookHeaders } from 'agent-functions/platform';

/** Largest answer the emulator reads back. */
const ANSWER_LIMIT = 1024 * 1024;

/** What came back from one outbound request. */
export interface OutboundOutcome {
  url: string;
  status: number | null;
  durationMs: number;
  body?: unknown;
  error?: string;
  /** The answer's X-Request-Id: the Worker logs each call under it. */
  requestId?: string;
}

/** The url with credential-bearing query values hidden, safe to print. */
export const redact = (url: string): string => {
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()]) {
    if (/^(?:key|apikey|api_key|token|secret|signature)$/i.test(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.href;
};

const readAnswer = async (response: Response): Promise<unknown> => {
  const text = (await response.text()).slice(0, ANSWER_LIMIT);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/**
 * POSTs `body` as JSON, signed with the spec's webhook headers when `secret` is given.
 * @example await postJson(fn.url, { city: 'Paris' }, { timeoutMs: 10_000 })
 */
export const postJson = async (
  url: string,
  body: unknown,
  options: { secret?: string | undefined; timeoutMs: number },
): Promise<OutboundOutcome> => {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'agent-functions-emulator',
  };
  if (options.secret) Object.assign(headers, await webhookHeaders(options.secret, raw));
  const started = Date.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: raw,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const requestId = response.headers.get('x-request-id');
    return {
      url: redact(url),
      status: response.status,
      durationMs: Date.now() - started,
      body: await readAnswer(response),
      ...(requestId ? { requestId } : {}),
    };
  } catch (error) {
    const reason =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : String((error as Error).cause ?? error);
    return { url: redact(url), status: null, durationMs: Date.now() - started, error: reason };
  }
};
