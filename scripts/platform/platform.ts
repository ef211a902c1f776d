// The local platform (docs/platform-contract.md §6) as a fetch handler: the spec's routes, statuses and rules
// on in-memory state, with fault injection for tests. It runs anywhere fetch does: Node serves it
// through emulator.ts, and workerd tests answer the Worker's platform calls with it (outbound mock).

import { FunctionError } from 'agent-functions';
import { Router } from 'itty-router/Router';
import { authenticate } from './auth.ts';
import { createFaults, type FaultOptions, type Faults } from './faults.ts';
import { EmulatorError, errorAnswer, jsonAnswer } from './http.ts';
import { createRateLimiter, DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rateLimit.ts';
import type { Route, RouteSettings } from './route.ts';
import { contactRoutes } from './routes/contacts.ts';
import { customFunctionRoutes } from './routes/customFunctions.ts';
import { emulatorRoutes } from './routes/emulator.ts';
import { messageRoutes } from './routes/messages.ts';
import { subAccountRoutes } from './routes/subAccounts.ts';
import { webhookRoutes } from './routes/webhooks.ts';
import {
  type AccountOptions,
  type AccountState,
  addAccountTo,
  createState,
  type EmulatorState,
  type SeededAccount,
} from './state.ts';

export interface PlatformOptions {
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
  /** How long the agent waits for a function's answer (default 15 000 ms); a call may set its own. */
  answerDeadlineMs?: number;
  /** Attempts of an event delivery that fails (default 3), each re-signed. */
  deliveryAttempts?: number;
  /** Pause before a delivery's second attempt, doubling after each (default 1000 ms). */
  deliveryRetryDelayMs?: number;
  /** Called once per request, after it was answered (the CLI prints a line). */
  onRequest?: (request: LoggedRequest) => void;
}

/** One request the emulator answered (never its query string, which may carry a key). */
export interface LoggedRequest {
  method: string;
  path: string;
  status: number | 'dropped';
}

/** Thrown instead of answering: the adapter closes the connection (a fault the tests inject). */
export class ConnectionDropped extends Error {
  constructor() {
    super('The platform dropped the connection (injected).');
    this.name = 'ConnectionDropped';
  }
}

export interface Platform {
  /** Answers one request, or throws ConnectionDropped. */
  fetch(request: Request): Promise<Response>;
  accounts: SeededAccount[];
  /** The live in-memory state, for tests to inspect. */
  state: EmulatorState;
  /** Adds an account while it runs (also to `accounts`); refused when its key or address is taken. */
  addAccount(options: AccountOptions): SeededAccount;
  /** Replaces the faults and restarts their counts. */
  setFaults(faults: FaultOptions): void;
  /** How many requests arrived so far. */
  requests(): number;
  /** The requests so far, in order (the last 10 000). */
  log(): LoggedRequest[];
}

const ROUTES: Route[] = [
  ...contactRoutes,
  ...messageRoutes,
  ...webhookRoutes,
  ...customFunctionRoutes,
  ...subAccountRoutes,
  ...emulatorRoutes,
];

type RoutedRequest = Request & { params: Record<string, string> };
type Call = { state: EmulatorState; account: AccountState; url: URL; settings: RouteSettings };

// itty-router matches the path; the methods of one path share a route, so another method is a 405.
const router = Router<RoutedRequest, [Call]>();
for (const path of new Set(ROUTES.map((route) => route.path))) {
  const byMethod = new Map(ROUTES.filter((route) => route.path === path).map((route) => [route.method, route]));
  router.all(path, (request, call) => {
    const route = byMethod.get(request.method);
    if (!route) {
      const allow = [...byMethod.keys()].join(', ');
      throw new EmulatorError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allow}.`, {
        headers: { allow },
      });
    }
    return route.handler({ ...call, request, params: { ...request.params } });
  });
}
router.all('*', (request) => {
  throw new EmulatorError(
    404,
    'not_found',
    `No endpoint ${new URL(request.url).pathname.slice(0, 100)}: every path starts with /v1/ (see the spec).`,
  );
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The request as the routes see it: an account's own address (`/accounts/<name>/v1/...`) without its prefix. */
const atOwnAddress = (
  request: Request,
  state: EmulatorState,
): { request: Request; url: URL; owner: AccountState | undefined } => {
  const url = new URL(request.url);
  const owner = state.accounts.find(
    ({ basePath }) => basePath && (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`)),
  );
  if (!owner?.basePath) return { request, url, owner: undefined };
  url.pathname = url.pathname.slice(owner.basePath.length) || '/';
  const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers };
  if (request.body) Object.assign(init, { body: request.body, duplex: 'half' });
  return { request: new Request(url, init), url, owner };
};

/** An account as the tests see it: its seed, without the state behind it. */
const seeded = ({ id, name, plan, apiKey, channels, basePath }: AccountState): SeededAccount => ({
  id,
  name,
  plan,
  apiKey,
  channels: [...channels],
  ...(basePath ? { basePath } : {}),
});

/**
 * The gate of every /v1/ request before its route: the plan's API access, then the injected fault
 * (a dropped connection, a 429, a 5xx), then the key's rate limit. Throws the refusal.
 */
const admitApiRequest = (
  method: string,
  account: AccountState,
  faults: Faults,
  limited: (apiKey: string) => number,
  drop: () => Error,
): void => {
  if (account.plan === 'legacy') {
    throw new EmulatorError(
      403,
      'plan_without_api_access',
      "The account's plan does not include API access: check the plan.",
    );
  }
  const verdict = faults.before(method);
  if (verdict.kind === 'drop') throw drop();
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
    throw new EmulatorError(verdict.status, 'server_error', 'The platform failed (injected). Nothing was applied.');
  }
  const retryAfter = limited(account.apiKey);
  if (retryAfter > 0) {
    throw new EmulatorError(429, 'rate_limited', `Rate limit exceeded for this API key. Retry after ${retryAfter} s.`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
};

/** An applied request whose answer is lost on the way (injected): the connection dropped, or a 502. */
const loseAnswer = (method: string, faults: Faults, drop: () => Error): void => {
  const lose = faults.loseAnswer(method);
  if (lose === 'drop') throw drop();
  if (lose === '502') {
    throw new EmulatorError(502, 'bad_gateway', 'The answer was lost on the way (injected); the request was applied.');
  }
};

/**
 * The local platform's fetch handler and its state.
 * @example const platform = createPlatform({ pageSize: 2 }); await platform.fetch(new Request(`${base}/v1/contacts`))
 */
export const createPlatform = (options: PlatformOptions = {}): Platform => {
  const state = createState(options.accounts);
  const faults = createFaults(options.faults);
  const limited = createRateLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT);
  const settings: RouteSettings = {
    pageSize: options.pageSize ?? 20,
    agencyExtraSubAccounts: options.agencyExtraSubAccounts ?? 'refuse',
    functionSigningSecret: options.functionSigningSecret,
    outboundTimeoutMs: options.outboundTimeoutMs ?? 15_000,
    answerDeadlineMs: options.answerDeadlineMs ?? options.outboundTimeoutMs ?? 15_000,
    deliveryAttempts: options.deliveryAttempts ?? 3,
    deliveryRetryDelayMs: options.deliveryRetryDelayMs ?? 1000,
    deliveryFault: () => faults.delivery(),
  };
  const log: LoggedRequest[] = [];
  let count = 0;

  const fetch = async (received: Request): Promise<Response> => {
    count++;
    const entry: LoggedRequest = { method: received.method, path: new URL(received.url).pathname, status: 0 };
    log.push(entry);
    if (log.length > 10_000) log.shift();
    const drop = () => {
      entry.status = 'dropped';
      options.onRequest?.(entry);
      return new ConnectionDropped();
    };
    try {
      // An account with its own address (a white-label tenant's) is reached there with its own key only.
      const { request, url, owner } = atOwnAddress(received, state);
      const isApi = url.pathname.startsWith('/v1/');
      // Latency before anything, so a refused key (401) or plan (403) takes as long as any answer.
      if (isApi && faults.slowMs > 0) await wait(faults.slowMs);
      const account = await authenticate(request, url, state);
      if (owner && account !== owner) {
        throw new EmulatorError(
          401,
          'invalid_api_key',
          "The API key is not valid at this address: it belongs to another account. Use that account's own base url.",
        );
      }
      if (isApi) admitApiRequest(request.method, account, faults, limited, drop);
      const answer = await router.fetch(request as RoutedRequest, { state, account, url, settings });
      if (isApi && answer.status < 300) loseAnswer(request.method, faults, drop);
      entry.status = answer.status;
      options.onRequest?.(entry);
      return jsonAnswer(answer.status, answer.body, answer.headers);
    } catch (error) {
      if (error instanceof ConnectionDropped) throw error;
      // The Worker's own helpers (the bounded body reader) refuse with its error type.
      const known =
        error instanceof EmulatorError || error instanceof FunctionError
          ? error
          : new EmulatorError(500, 'internal_error', 'The emulator failed; see its console.');
      if (known !== error) console.error(error);
      entry.status = known.status;
      options.onRequest?.(entry);
      return errorAnswer(known);
    }
  };

  const accounts = state.accounts.map(seeded);
  return {
    fetch,
    accounts,
    addAccount: (added) => {
      const account = seeded(addAccountTo(state, added));
      accounts.push(account);
      return account;
    },
    state,
    setFaults: (next) => faults.set(next),
    requests: () => count,
    log: () => [...log],
  };
};
