// The local platform (CONTRACT section 6): an in-memory HTTP server on the spec's routes, statuses and
// rules, with fault injection for tests. Node-only; the Worker never imports it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticate } from './auth.ts';
import { createFaults, type FaultOptions } from './faults.ts';
import { EmulatorError, sendError, sendJson } from './http.ts';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rateLimit.ts';
import type { Route, RouteSettings } from './route.ts';
import { contactRoutes } from './routes/contacts.ts';
import { customFunctionRoutes } from './routes/customFunctions.ts';
import { emulatorRoutes } from './routes/emulator.ts';
import { messageRoutes } from './routes/messages.ts';
import { subAccountRoutes } from './routes/subAccounts.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import { type AccountOptions, createState, type EmulatorState, type SeededAccount } from './state.ts';

export type { FaultOptions } from './faults.ts';
export type { AccountOptions, Plan, SeededAccount } from './state.ts';

/** The default port (CONTRACT section 2). */
export const DEFAULT_PORT = 8788;

export interface EmulatorOptions {
  /** 0 picks a free port (tests). Default 8788. */
  port?: number;
  /** Default 127.0.0.1: the emulator is for this machine only. */
  host?: string;
  /** Default: one account per plan (Business, Agency, Agency Unlimited, Legacy without API access). */
  accounts?: AccountOptions[];
  /** Records per list page (default 20). */
  pageSize?: number;
  /** Per-key limit; false turns it off. */
  rateLimit?: RateLimitOptions | false;
  faults?: FaultOptions;
  /** What the 11th Agency sub-account does (default 'refuse' with 402; 'charge' creates it as extra). */
  agencyExtraSubAccounts?: 'refuse' | 'charge';
  /** When set, the emulator signs its calls of functions with it (the Worker's PLATFORM_SIGNING_SECRET). */
  functionSigningSecret?: string;
  /** Time limit of deliveries and function calls (default 15 000 ms). */
  outboundTimeoutMs?: number;
  /** Called once per request, after it was answered (the CLI prints a line). */
  onRequest?: (request: LoggedRequest) => void;
}

/** One request the emulator answered (never its query string, which may carry a key). */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number | 'dropped';
}

export interface RunningEmulator {
  /** Base URL to use as PLATFORM_BASE_URL, for example http://127.0.0.1:8788. */
  url: string;
  accounts: SeededAccount[];
  /** The live in-memory state, for tests to inspect. */
  state: EmulatorState;
  /** Replaces the faults and restarts their counts. */
  setFaults(faults: FaultOptions): void;
  /** How many requests arrived so far. */
  requests(): number;
  /** The requests so far, in order (the last 10 000). */
  log(): LoggedRequest[];
  close(): Promise<void>;
}

const ROUTES: Route[] = [
  ...contactRoutes,
  ...messageRoutes,
  ...webhookRoutes,
  ...customFunctionRoutes,
  ...subAccountRoutes,
  ...emulatorRoutes,
];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const match = (method: string, path: string) => {
  const candidates = ROUTES.filter((route) => route.pattern.test(path));
  const route = candidates.find((candidate) => candidate.method === method);
  if (route) return { route, params: { ...route.pattern.exec(path)?.groups } };
  if (candidates.length > 0) {
    const allow = [...new Set(candidates.map((candidate) => candidate.method))].join(', ');
    throw new EmulatorError(405, 'method_not_allowed', `${method} is not allowed here; use ${allow}.`, {
      headers: { allow },
    });
  }
  throw new EmulatorError(
    404,
    'not_found',
    `No endpoint ${path.slice(0, 100)}: every path starts with /v1/ (see the spec).`,
  );
};

/**
 * Starts the local platform.
 * @example const platform = await startEmulator({ port: 0, pageSize: 2 }); // platform.url, platform.accounts
 */
export const startEmulator = async (options: EmulatorOptions = {}): Promise<RunningEmulator> => {
  const state = createState(options.accounts);
  const faults = createFaults(options.faults);
  const limited = createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const settings: RouteSettings = {
    pageSize: options.pageSize ?? 20,
    agencyExtraSubAccounts: options.agencyExtraSubAccounts ?? 'refuse',
    functionSigningSecret: options.functionSigningSecret,
    outboundTimeoutMs: options.outboundTimeoutMs ?? 15_000,
  };
  const log: LoggedRequest[] = [];
  let count = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    count++;
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'http://emulator.invalid');
    const entry: LoggedRequest = { method, path: url.pathname, status: 0 };
    log.push(entry);
    if (log.length > 10_000) log.shift();
    const drop = () => {
      entry.status = 'dropped';
      request.socket.destroy();
      options.onRequest?.(entry);
    };
    try {
      const account = authenticate(request, url, state);
      const isApi = url.pathname.startsWith('/v1/');
      if (isApi) {
        if (account.plan === 'legacy') {
          throw new EmulatorError(
            403,
            'plan_without_api_access',
            "The account's plan does not include API access: check the plan.",
          );
        }
        if (faults.slowMs > 0) await wait(faults.slowMs);
        const verdict = faults.before(method);
        if (verdict.kind === 'drop') return drop();
        if (verdict.kind === 'rateLimit') {
          throw new EmulatorError(
            429,
            'rate_limited',
            'Rate limit exceeded for this API key (injected). Back off and retry.',
            {
              headers: { 'retry-after': verdict.retryAfter },
            },
          );
        }
        if (verdict.kind === 'serverError') {
          throw new EmulatorError(
            verdict.status,
            'server_error',
            'The platform failed (injected). Nothing was applied.',
          );
        }
        const retryAfter = limited(account.apiKey);
        if (retryAfter > 0) {
          throw new EmulatorError(
            429,
            'rate_limited',
            `Rate limit exceeded for this API key. Retry after ${retryAfter} s.`,
            {
              headers: { 'retry-after': String(retryAfter) },
            },
          );
        }
      }
      const { route, params } = match(method, url.pathname);
      const answer = await route.handler({ state, account, request, url, params, settings });
      if (isApi && answer.status < 300) {
        const lose = faults.loseAnswer(method);
        if (lose === 'drop') return drop();
        if (lose === '502') {
          throw new EmulatorError(
            502,
            'bad_gateway',
            'The answer was lost on the way (injected); the request was applied.',
          );
        }
      }
      entry.status = answer.status;
      if (!response.destroyed) sendJson(response, answer.status, answer.body, answer.headers);
      options.onRequest?.(entry);
    } catch (error) {
      const known =
        error instanceof EmulatorError
          ? error
          : new EmulatorError(500, 'internal_error', 'The emulator failed; see its console.');
      if (!(error instanceof EmulatorError)) console.error(error);
      entry.status = known.status;
      if (!response.destroyed) sendError(response, known);
      options.onRequest?.(entry);
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    accounts: state.accounts.map(({ id, name, plan, apiKey, channels }) => ({
      id,
      name,
      plan,
      apiKey,
      channels: [...channels],
    })),
    state,
    setFaults: (next) => faults.set(next),
    requests: () => count,
    log: () => [...log],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};
