// The console's routes: which method and path answer what. A request reaches them only after the
// server's guards (this machine only, JSON bodies); each answer is a status and a body.
import { workerApprovals } from './approvals.ts';
import { CONSOLE_PAGE } from './page.ts';
import { type ConsoleState, callFunction, conversationNow } from './state.ts';
import { statsAnswer } from './stats.ts';
import { timeline } from './timeline.ts';

/** A request as the routes read it: `body` reads (and parses) the JSON body. */
export interface ConsoleRequest {
  method: string;
  pathname: string;
  searchParams: URLSearchParams;
  body: () => Promise<unknown>;
}

/** What a route answers; `type` is the content type (default application/json). */
export interface ConsoleAnswer {
  status: number;
  body: unknown;
  type?: string;
}

const CALL_PATH = /^\/api\/call\/([a-z][a-z0-9_]{0,63})$/;

/** GET /api/accounts: names and addresses only, the console never hands out a key. */
const accountsAnswer = (state: ConsoleState): ConsoleAnswer => ({
  status: 200,
  body: {
    accounts: state.accounts.map((account, index) => ({
      name: account.name,
      first: index === 0,
      baseUrl: account.url,
    })),
  },
});

/** POST /api/call/<name>: calls a function as the chosen account's agent (the first by default). */
const callAnswer = async (state: ConsoleState, name: string, request: ConsoleRequest): Promise<ConsoleAnswer> => {
  const input = (await request.body()) as { arguments?: unknown; account?: unknown };
  if (input.account !== undefined && typeof input.account !== 'string') {
    return { status: 400, body: { error: 'account must be the name of an account of the local platform.' } };
  }
  return callFunction(state, name, input.arguments, input.account);
};

/** GET or POST /api/conversation: the conversation calls come from; POST starts a new one. */
const conversationAnswer = async (state: ConsoleState, request: ConsoleRequest): Promise<ConsoleAnswer> => {
  if (request.method === 'POST') {
    await request.body();
    state.conversations += 1;
  }
  return { status: 200, body: { conversation: (await conversationNow(state)) ?? null } };
};

/** The GET routes without a body: the page, the functions, the calls, the timeline, the figures, the accounts. */
const readRoute = async (state: ConsoleState, request: ConsoleRequest): Promise<ConsoleAnswer | undefined> => {
  switch (request.pathname) {
    case '/':
      return { status: 200, body: CONSOLE_PAGE, type: 'text/html' };
    case '/api/functions': {
      const listing = await state.options.functions();
      return { status: 200, body: Array.isArray(listing) ? { functions: listing } : listing };
    }
    case '/api/calls':
      return { status: 200, body: { calls: state.log.list() } };
    case '/api/activity':
      return { status: 200, body: await timeline(state) };
    case '/api/stats':
      return statsAnswer(state.options.records?.() ?? [], request.searchParams, Date.now());
    case '/api/accounts':
      return accountsAnswer(state);
    default:
      return undefined;
  }
};

/** The answer to one request that passed the server's guards; 404 for anything else. */
export const routeConsole = async (state: ConsoleState, request: ConsoleRequest): Promise<ConsoleAnswer> => {
  const { method, pathname } = request;
  if (method === 'GET') {
    const answer = await readRoute(state, request);
    if (answer) return answer;
  }
  const getOrPost = method === 'GET' || method === 'POST';
  if (pathname === '/api/conversation' && getOrPost) return conversationAnswer(state, request);
  // Approvals waiting for a person (src/approval/): the Worker's development-only desk, by reply code.
  if (pathname === '/api/approvals' && getOrPost) {
    return workerApprovals(state, method === 'POST' ? await request.body() : undefined);
  }
  const callName = CALL_PATH.exec(pathname)?.[1];
  if (method === 'POST' && callName) return callAnswer(state, callName, request);
  return { status: 404, body: { error: 'Not found.' } };
};
