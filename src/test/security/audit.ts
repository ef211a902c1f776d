// The invariants every answer of the fuzz run must keep, and the records they are checked against:
// which handlers ran with which arguments, what the logger wrote, and the prototypes at the start.
import type { z } from 'zod';
import type { AnyFunctionDefinition } from '../../define.ts';
import { setLogSink } from '../../log.ts';

/** Statuses docs/platform-contract.md §4 lists (503 and 429 are left out: the fuzz env is configured and unlimited). */
export const CONTRACT_STATUSES = new Set([200, 400, 401, 404, 405, 408, 413, 422, 500, 504]);

/**
 * The refusals a feature gives on its handler's behalf, documented with the feature
 * (docs/functions.md): a write in progress or of unknown outcome, an approval that cannot be asked
 * here or now, a function's own rate limit or missing setting. The handler did not run; the status
 * is one a handler may answer (§4).
 */
export const FEATURE_REFUSALS: Readonly<Record<string, number>> = {
  call_in_progress: 409,
  outcome_unknown: 409,
  approval_needs_conversation: 409,
  approval_unavailable: 503,
  // What a function declares, answered for it: its `rateLimit` spent (a shipped refund's), and a
  // `secrets`/`vars` setting the env leaves unset (the e2e tier gives the shipped functions no
  // platform or store address, so no call leaves the machine).
  rate_limited: 429,
  not_configured: 503,
};

/** One request as the fuzzer built it, with what the oracle knows about its answer. */
export interface Sent {
  /** The registered function the path names, if any. */
  fn?: string;
  method: string;
  /** Path and query string. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  /** The status the contract prescribes, when the request is built so that it is certain. */
  expected?: number;
  /** Argument values the logger must never write (unless `fn` opted in with logArguments). */
  argumentValues: string[];
}

/** What one handler run saw. */
export interface Run {
  fn: string;
  /** Why the arguments broke the contract; empty when they were valid. */
  problems: string[];
  threw: boolean;
}

/** Handler runs, in order; each request looks at the runs it caused. */
export const runs: Run[] = [];

const BUILTIN_PROTOTYPES = new Set<unknown>([Object.prototype, Array.prototype, Date.prototype, null]);

/** Problems of arguments a handler received: schema failures and foreign prototypes, at any depth. */
const problemsOf = (schema: z.ZodType, args: unknown): string[] => {
  const problems: string[] = [];
  const parsed = schema.safeParse(args);
  if (!parsed.success) problems.push(`fails its schema: ${parsed.error.message}`);
  // Iterative walk: arguments may be nested thousands deep.
  const stack: unknown[] = [args];
  let seen = 0;
  while (stack.length > 0 && seen++ < 100_000) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (!BUILTIN_PROTOTYPES.has(Object.getPrototypeOf(value))) problems.push('an object has a foreign prototype');
    for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return problems;
};

/**
 * The definition with its handler wrapped: each run is recorded with the problems of its
 * arguments, then the original handler runs.
 */
export const guarded = (name: string, definition: AnyFunctionDefinition): AnyFunctionDefinition => {
  const original = definition.handler;
  return {
    ...definition,
    handler: async (args, context) => {
      const run: Run = { fn: name, problems: problemsOf(definition.parameters, args), threw: false };
      runs.push(run);
      try {
        return await original(args, context);
      } catch (error) {
        run.threw = true;
        throw error;
      }
    },
  };
};

/** Every log line written since the capture started. */
export const logLines: string[] = [];

/** Sends the logger's lines to `logLines` (and nowhere else) until the returned function is called. */
export const captureLogs = (): (() => void) => {
  const previous = setLogSink((line) => logLines.push(line));
  return () => setLogSink(previous);
};

const PROTOTYPES = { Object, Array, Function, String, Number, Boolean, Date, Promise, RegExp, Error } as const;

/** The own property names of every built-in prototype, to compare after the run. */
export const prototypeSnapshot = (): Record<string, string[]> =>
  Object.fromEntries(
    Object.entries(PROTOTYPES).map(([name, ctor]) => [name, Reflect.ownKeys(ctor.prototype).map(String).sort()]),
  );

/** Property names the fuzzer tries to plant on prototypes. */
export const POLLUTION_PROBES = ['polluted', 'isAdmin', 'fuzzed'] as const;

const STACK_TRACE = /\n\s+at |\bat [\w$.<>]+ \(|\.(?:ts|js|mjs):\d+/;

const ERROR_KEYS = new Set(['code', 'message', 'details', 'requestId']);

/** Everything the auditor needs to judge one answer. */
export interface Verdict {
  sent: Sent;
  response: Response;
  /** Handler runs this request caused. */
  ran: Run[];
  /** Log lines this request caused. */
  lines: string[];
  /** Strings that must appear in no answer and no log line. */
  secrets: string[];
  /** Functions whose argument values may be logged. */
  loggingFunctions: Set<string>;
  snapshot: Record<string, string[]>;
}

/**
 * The list of broken invariants for one answer (empty when all hold).
 * @example expect(await violations(verdict)).toEqual([])
 */
export const violations = async (v: Verdict): Promise<string[]> => {
  const found: string[] = [];
  const { sent, response } = v;
  const text = await response.text();
  const requestId = response.headers.get('x-request-id');
  if (!requestId) found.push('no X-Request-Id');
  // A handler may refuse with a status of its own choosing (FunctionError); the runtime may not.
  const handlerThrew = v.ran.some((run) => run.threw);
  const code = /"code":"([a-z_]+)"/.exec(text)?.[1];
  const featureRefused = code !== undefined && FEATURE_REFUSALS[code] === response.status;
  if (!CONTRACT_STATUSES.has(response.status) && !handlerThrew && !featureRefused)
    found.push(`status ${response.status} is not in docs/platform-contract.md §4`);
  // A function's rate limit is spent before its body and signature are read (§4's order): its 429
  // stands before the refusal the oracle expects of the body.
  const spentFirst = code === 'rate_limited' && response.status === 429;
  if (sent.expected !== undefined && response.status !== sent.expected && !spentFirst)
    found.push(`status ${response.status}, the contract says ${sent.expected}`);
  if (response.status === 500 && !handlerThrew) found.push('a 500 that no handler caused');
  if (v.ran.length > 0 && sent.fn && v.ran.some((run) => run.fn !== sent.fn)) found.push('another handler ran');
  for (const run of v.ran)
    for (const problem of run.problems) found.push(`handler ${run.fn} ran with arguments that ${problem}`);
  if (v.ran.length > 0 && !handlerThrew && response.status !== 200)
    found.push(`handler ran but the answer is ${response.status}`);
  // A HEAD answer has no body to judge.
  if (sent.method !== 'HEAD') {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      found.push('the body is not JSON');
    }
    if (response.status !== 200 && body !== undefined) {
      const error = (body as { error?: Record<string, unknown> } | null)?.error;
      const shapeOk =
        typeof body === 'object' &&
        body !== null &&
        Object.keys(body).length === 1 &&
        typeof error === 'object' &&
        error !== null &&
        typeof error.code === 'string' &&
        typeof error.message === 'string' &&
        error.requestId === requestId &&
        (error.details === undefined || Array.isArray(error.details)) &&
        Object.keys(error).every((key) => ERROR_KEYS.has(key));
      if (!shapeOk) found.push(`not the JSON error shape: ${text.slice(0, 200)}`);
    }
    if (!(response.headers.get('content-type') ?? '').startsWith('application/json'))
      found.push('not application/json');
  }
  if (STACK_TRACE.test(text)) found.push('a stack trace in the answer');
  const headerText = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
  for (const secret of v.secrets) {
    if (text.includes(secret) || headerText.includes(secret))
      found.push(`a secret in the answer (${secret.slice(0, 6)}...)`);
    if (v.lines.some((line) => line.includes(secret))) found.push(`a secret in the logs (${secret.slice(0, 6)}...)`);
  }
  if (!sent.fn || !v.loggingFunctions.has(sent.fn)) {
    for (const value of sent.argumentValues) {
      if (value.length >= 8 && v.lines.some((line) => line.includes(JSON.stringify(value).slice(1, -1))))
        found.push(`argument value ${JSON.stringify(value.slice(0, 20))} logged without logArguments`);
    }
  }
  const now = prototypeSnapshot();
  for (const [name, keys] of Object.entries(v.snapshot)) {
    if (JSON.stringify(now[name]) !== JSON.stringify(keys)) found.push(`${name}.prototype changed`);
  }
  const probe: Record<string, unknown> = {};
  for (const key of POLLUTION_PROBES) if (probe[key] !== undefined) found.push(`({}).${key} is defined`);
  return found;
};
