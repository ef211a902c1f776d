// One tail event (what `wrangler tail --format json` prints per request) -> the call it was: the
// call's record, the Worker's own JSON log line `invocation` (src/record.ts), names the function,
// status, duration and request id. Text that came from the network is made printable, and a url is
// shown without its query string, which carries the function's key.
import { recordOfLine } from 'agent-functions/internal';
import { printable } from 'agent-functions/platform';
import type { CallRecord } from 'agent-functions/worker';

/** One call, as the tail shows it: its record's fields, undefined where the Worker made none. */
export interface TailedCall {
  time: string;
  /** The function called, or undefined for a request that reached no function (the manifest, a 404). */
  function: string | undefined;
  /** The account the call acted in, when the Worker's line names one. */
  account: string | undefined;
  method: string;
  path: string;
  status: CallRecord['status'] | undefined;
  durationMs: CallRecord['durationMs'] | undefined;
  requestId: CallRecord['requestId'] | undefined;
  /** `ok`, `refused` (4xx) or `error` (5xx) from the Worker's record; the runtime's outcome when it threw. */
  outcome: string;
  /** Warnings and errors logged during the call, and uncaught exceptions. */
  problems: string[];
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown) => (typeof value === 'string' ? printable(value, 200) : undefined);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The Worker's structured lines among a tail event's logs (each console.log of src/log.ts is one). */
const structured = (logs: unknown): Json[] =>
  (Array.isArray(logs) ? logs : []).flatMap((entry) => {
    const message = isObject(entry) && Array.isArray(entry.message) ? entry.message[0] : undefined;
    if (typeof message !== 'string') return [];
    try {
      const line = JSON.parse(message) as unknown;
      return isObject(line) ? [line] : [];
    } catch {
      return [];
    }
  });

/**
 * The call a tail event records, or undefined when it is not a request (a cron, an alarm).
 * @example callOf(JSON.parse(eventText))?.function // 'lookup_warranty'
 */
export const callOf = (event: unknown): TailedCall | undefined => {
  if (!isObject(event) || !isObject(event.event) || !isObject(event.event.request)) return undefined;
  const { request, response } = event.event as { request: Json; response?: Json };
  const url = typeof request.url === 'string' && URL.canParse(request.url) ? new URL(request.url) : undefined;
  const lines = structured(event.logs);
  const invocation = lines.map(recordOfLine).find((record) => record !== undefined);
  const problems = lines
    .filter((line) => line.level === 'warn' || line.level === 'error')
    .map((line) => `${str(line.level)} ${str(line.event) ?? ''}${line.error ? ` (${str(line.error)})` : ''}`);
  for (const exception of Array.isArray(event.exceptions) ? event.exceptions : []) {
    if (isObject(exception)) problems.push(`exception ${str(exception.name) ?? ''}: ${str(exception.message) ?? ''}`);
  }
  const status = num(invocation?.status) ?? num(isObject(response) ? response.status : undefined);
  const runtime = str(event.outcome) ?? 'unknown';
  return {
    time: new Date(num(event.eventTimestamp) ?? Date.now()).toISOString(),
    function: str(invocation?.function ?? undefined),
    account: str(invocation?.account ?? undefined),
    method: str(request.method) ?? '?',
    path: url ? printable(url.pathname, 200) : '?',
    status,
    durationMs: num(invocation?.durationMs),
    requestId: str(invocation?.requestId),
    outcome: str(invocation?.outcome) ?? (runtime === 'ok' ? (status && status >= 400 ? 'refused' : 'ok') : runtime),
    problems,
  };
};

/** What to show: only these accounts, only these functions, only these statuses (`404`, `4xx`, `5xx`). */
export interface TailFilter {
  accounts?: readonly string[];
  functions?: readonly string[];
  statuses?: readonly string[];
}

/** Whether a call passes the filter. */
export const matches = (call: TailedCall, filter: TailFilter): boolean => {
  if (filter.accounts?.length && !(call.account && filter.accounts.includes(call.account))) return false;
  if (filter.functions?.length && !(call.function && filter.functions.includes(call.function))) return false;
  if (filter.statuses?.length) {
    const status = String(call.status ?? '');
    return filter.statuses.some((wanted) =>
      /^\dxx$/i.test(wanted) ? status.startsWith(wanted[0] as string) : status === wanted,
    );
  }
  return true;
};

type Colour = (style: 'green' | 'yellow' | 'red' | 'dim', text: string) => string;

/**
 * The call as one line (and an indented line per problem):
 * `2026-11-22T04:20:01.123Z  200 lookup_warranty  12 ms  req 5f0c…`.
 */
export const formatCall = (call: TailedCall, colour: Colour = (_style, text) => text): string => {
  const style = call.outcome === 'ok' ? 'green' : call.outcome === 'refused' ? 'yellow' : 'red';
  const what = call.function ?? `${call.method} ${call.path}`;
  const parts = [
    colour('dim', call.time),
    colour(style, String(call.status ?? '---')),
    what.padEnd(24),
    call.durationMs === undefined ? '' : `${call.durationMs} ms`.padStart(7),
    call.account ? colour('dim', `account ${call.account}`) : '',
    call.requestId ? colour('dim', `req ${call.requestId}`) : '',
  ];
  const head = parts.filter(Boolean).join('  ').trimEnd();
  return [head, ...call.problems.map((problem) => `    ${colour('red', problem)}`)].join('\n');
};
