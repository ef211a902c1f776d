// The local console of `npm run dev`: a page listing every function exactly as the platform received
// it, a form per function that calls it through the Worker, and one timeline of those calls and of
// what the local platform did (its calls as the agent, event deliveries and their answers, the
// messages sent, each beside its cause). With several accounts (platform.accounts.json), each item
// names its account, and a call can be made as any account's agent, through that account's url.
// Served by the Node dev process on 127.0.0.1; nothing here is ever bundled into the Worker.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localSurfaceRefusal } from 'agent-functions/internal';
import type { Finding } from '../../descriptions/types.ts';
import type { ActivityAnswer } from '../../emulator/routes/activity.ts';
import type { StoredRecord } from '../../stats/aggregate.ts';
import type { WorkerLine } from '../workerLog.ts';
import { type ConsoleItem, mergeActivity } from './activity.ts';
import { createCallLog } from './calls.ts';
import { CONSOLE_PAGE } from './page.ts';
import { statsAnswer } from './stats.ts';

/** A function as the console shows it. */
export interface ConsoleFunction {
  name: string;
  /** What the platform holds (description, parameter map, url with the key masked), or null before sync. */
  registered: { description: string; parameters: Record<string, string>; url: string } | null;
  /** The Worker's JSON Schema of the arguments, for the form. */
  jsonSchema: unknown;
  /** With several accounts: those that hold its registration. */
  registeredOn?: string[];
  /** What the description linter finds in what the model reads (agent-functions lint functions). */
  findings?: Pick<Finding, 'severity' | 'rule' | 'parameter' | 'message' | 'fix'>[];
}

/** The functions, and why none (or not all) can be shown: the Worker's manifest fails as a whole on a broken definition. */
export interface ConsoleListing {
  functions: ConsoleFunction[];
  problem?: string;
}

export interface ConsoleOptions {
  /** Preferred port; when taken (or 0), a free one. */
  port: number;
  /** Every function, read fresh on each page load. */
  functions: () => Promise<ConsoleFunction[] | ConsoleListing>;
  /** The local platform and the account dev uses: its activity joins the console's timeline. */
  platform?: { url: string; apiKey: string };
  /**
   * Every account dev plays, the first first (instead of `platform`): each one's activity joins the
   * timeline, named, and a call can be made as any one's agent. `url` is the account's base url.
   */
  accounts?: ConsoleAccount[];
  /** The url `account` (default: the first) calls for `name` (key included): the console calls exactly that. */
  urlOf: (name: string, account?: string) => Promise<string | undefined>;
  /** What the Worker itself logged (dev reads it from wrangler's output): calls from every source, deliveries handled. */
  workerLog?: () => WorkerLine[];
  /** The record of every call the Worker made (dev's ring, records.ts): GET /api/stats and the health view. */
  records?: () => Iterable<StoredRecord>;
  /** The conversation each call comes from (docs/platform-contract.md §9), added beside the arguments; per account. */
  conversation?: (
    account?: string,
  ) => Promise<{ contactId: string; conversationId: string; channel: string } | undefined>;
}

/** An account of the local platform as the console knows it. */
export interface ConsoleAccount {
  name: string;
  /** Its base url on the local platform. */
  url: string;
  apiKey: string;
}

export interface RunningConsole {
  url: string;
  /** Set when the port asked for was taken and another one was chosen: dev prints it. */
  note?: string;
  close(): Promise<void>;
}

/** The registered url with its key hidden, as the console shows it. */
export const maskKey = (url: string): string => url.replace(/([?&]key=)[^&]*/g, '$1***');

const MAX_BODY = 64 * 1024;

const readJson = async (request: IncomingMessage): Promise<unknown> => {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
};

const send = (response: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
};

const listen = async (server: ReturnType<typeof createServer>, port: number): Promise<void> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

/**
 * Starts the console.
 * @example const console = await startConsole({ port: 8789, functions, urlOf }); // console.url
 */
export const startConsole = async (options: ConsoleOptions): Promise<RunningConsole> => {
  const log = createCallLog();

  const accounts: ConsoleAccount[] = options.accounts ?? (options.platform ? [{ name: '', ...options.platform }] : []);
  const named = accounts.length > 1 || Boolean(options.accounts);

  // The console's conversation: the one dev gives (the account's), then a new one each time the
  // page starts one (the same customer, a new conversation id), so answers kept for repeats
  // (docs/functions.md, "Calls that repeat") belong to the conversation before and the next call runs.
  let conversations = 1;
  const conversationNow = async (account?: string) => {
    const first = await options.conversation?.(account).catch(() => undefined);
    if (!first || conversations === 1) return first;
    return { ...first, conversationId: `${first.conversationId}-${conversations}` };
  };

  const call = async (name: string, args: unknown, account: string | undefined) => {
    if (account !== undefined && !accounts.some((candidate) => candidate.name === account)) {
      const known = accounts.map((candidate) => candidate.name).join(', ');
      return { status: 400, body: { error: `No account "${account}" on the local platform: ${known || 'none'}.` } };
    }
    const url = await options.urlOf(name, account);
    if (!url) return { status: 404, body: { error: `No function named "${name}" is served.` } };
    const conversation = await conversationNow(account);
    const started = performance.now();
    const startedAt = Date.now();
    let status = 0;
    let requestId: string | undefined;
    let body: string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...((args as object | undefined) ?? {}), ...conversation }),
        signal: AbortSignal.timeout(60_000),
      });
      status = response.status;
      requestId = response.headers.get('x-request-id') ?? undefined;
      body = await response.text();
    } catch (error) {
      body = `No answer from the Worker: ${(error as Error).message}`;
    }
    const entry = log.add({
      ...(requestId ? { requestId } : {}),
      name,
      arguments: args,
      status,
      durationMs: Math.round(performance.now() - started),
      startedAt,
      endedAt: Date.now(),
      body,
      ...(conversation ? { conversation } : {}),
      ...(named ? { account: account ?? accounts[0]?.name ?? '' } : {}),
    });
    return { status: 200, body: entry };
  };

  /** One account's side, or why it cannot be read (the console's own calls are shown anyway). */
  const platformActivity = async (account: ConsoleAccount): Promise<{ answer?: ActivityAnswer; problem?: string }> => {
    const whose = named ? ` for account "${account.name}"` : '';
    try {
      const response = await fetch(`${account.url.replace(/\/+$/, '')}/_emulator/activity`, {
        headers: { 'x-api-key': account.apiKey },
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) return { problem: `the local platform answered ${response.status}${whose}` };
      return { answer: (await response.json()) as ActivityAnswer };
    } catch (error) {
      return { problem: `the local platform did not answer${whose} (${(error as Error).message})` };
    }
  };

  /** Every account's side and the console's own calls, one timeline (each item named by account when there are several). */
  const timeline = async (): Promise<{ items: ConsoleItem[]; problem?: string }> => {
    const sides = await Promise.all(accounts.map(platformActivity));
    const calls = log.list();
    const workerLines = options.workerLog?.() ?? [];
    const problems = sides.flatMap((side) => (side.problem ? [side.problem] : []));
    const problem = problems.length > 0 ? { problem: problems.join('; ') } : {};
    if (!named) return { items: mergeActivity(calls, sides[0]?.answer, workerLines), ...problem };
    // The Worker's line of a call made here (the console's, or an account's agent) joins that call;
    // the lines of calls nobody here made (curl, MCP) are shown once, under the account the Worker
    // acted in, or as refused before an account was known (`account: null`).
    const made = new Set([
      ...calls.flatMap((call) => (call.requestId ? [call.requestId] : [])),
      ...sides.flatMap((side) =>
        (side.answer?.activity ?? []).flatMap((record) =>
          record.kind === 'call' && record.requestId ? [record.requestId] : [],
        ),
      ),
    ]);
    const items: ConsoleItem[] = accounts.flatMap((account, index) =>
      mergeActivity(
        calls.filter((call) => call.account === account.name),
        sides[index]?.answer,
        workerLines.filter((line) =>
          line.kind === 'invocation'
            ? line.account === account.name && !made.has(line.requestId)
            : line.kind !== 'handling' || line.account === undefined || line.account === account.name,
        ),
      ).map((item) => ({ ...item, account: account.name })),
    );
    const refused = workerLines.filter(
      (line) =>
        line.kind === 'invocation' &&
        !made.has(line.requestId) &&
        !accounts.some((account) => account.name === line.account),
    );
    if (refused.length > 0)
      items.push(...mergeActivity([], undefined, refused).map((item) => ({ ...item, account: null })));
    return { items: items.toSorted((a, b) => b.startedAt - a.startedAt), ...problem };
  };

  // The Worker is asked for approvals only once its log showed one asked: a Worker without
  // approvals is never sent a request it did not expect.
  let approvalsSeen = false;
  /**
   * The Worker's desk of one account: `/approvals?account=<name>` (the desk reads "default"'s
   * without it, whatever the first account is named), or `/approvals` with no accounts named.
   */
  const deskOf = (origin: string, account: string | undefined): URL => {
    const desk = new URL('/approvals', origin);
    if (account) desk.searchParams.set('account', account);
    return desk;
  };
  const askDesk = async (desk: URL, decision: unknown): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(desk, {
      method: decision === undefined ? 'GET' : 'POST',
      ...(decision === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(decision) }),
      signal: AbortSignal.timeout(10_000),
    });
    // A Worker without approvals answers 404: nothing waits.
    if (response.status === 404) return { status: 200, body: { approvals: [] } };
    return { status: response.status, body: await response.json() };
  };
  /**
   * The Worker's pending approvals of every account, each named by its account, or a decision sent
   * to its account's desk; the Worker's origin is that of its function urls.
   */
  const workerApprovals = async (input: unknown): Promise<{ status: number; body: unknown }> => {
    approvalsSeen ||= (options.workerLog?.() ?? []).some(
      (line) => line.kind === 'deferred' && line.event === 'approval_asked',
    );
    if (!approvalsSeen) return { status: 200, body: { approvals: [] } };
    const listing = await options.functions();
    const first = (Array.isArray(listing) ? listing : listing.functions)[0];
    const url = first && (await options.urlOf(first.name));
    if (!url) return { status: 200, body: { approvals: [] } };
    const names: Array<string | undefined> = named ? accounts.map((account) => account.name) : [undefined];
    try {
      if (input !== undefined) {
        const { account, ...decision } = (input ?? {}) as { account?: unknown };
        const chosen = typeof account === 'string' && names.includes(account) ? account : names[0];
        return await askDesk(deskOf(url, chosen), decision);
      }
      const lists = await Promise.all(
        names.map(async (account) => {
          const { status, body } = await askDesk(deskOf(url, account), undefined);
          const approvals = status === 200 ? ((body as { approvals?: unknown[] }).approvals ?? []) : [];
          return approvals.map((approval) => ({ ...(approval as object), ...(account ? { account } : {}) }));
        }),
      );
      return { status: 200, body: { approvals: lists.flat() } };
    } catch (error) {
      return { status: 502, body: { error: `The Worker did not answer (${(error as Error).message}).` } };
    }
  };

  const server = createServer((request, response) => {
    void (async () => {
      const { pathname, searchParams } = new URL(request.url ?? '/', 'http://console.invalid');
      const callName = /^\/api\/call\/([a-z][a-z0-9_]{0,63})$/.exec(pathname)?.[1];
      // It calls with the keys and shows customers' details: only its own page and this machine's
      // programs may use it, never a page of another site or a rebound name (docs/security.md).
      const refused = localSurfaceRefusal(request.headers.host, request.headers.origin, []);
      if (refused) {
        request.resume();
        return send(response, 403, { error: refused.message });
      }
      if (request.method === 'POST' && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
        request.resume();
        return send(response, 415, { error: 'The console takes JSON ("content-type: application/json").' });
      }
      try {
        if (request.method === 'GET' && pathname === '/') return send(response, 200, CONSOLE_PAGE, 'text/html');
        if (request.method === 'GET' && pathname === '/api/functions') {
          const listing = await options.functions();
          return send(response, 200, Array.isArray(listing) ? { functions: listing } : listing);
        }
        if (request.method === 'GET' && pathname === '/api/calls') return send(response, 200, { calls: log.list() });
        if (request.method === 'GET' && pathname === '/api/activity') return send(response, 200, await timeline());
        if (request.method === 'GET' && pathname === '/api/stats') {
          const answer = statsAnswer(options.records?.() ?? [], searchParams, Date.now());
          return send(response, answer.status, answer.body);
        }
        if (request.method === 'GET' && pathname === '/api/accounts') {
          // Names and addresses only: the console never hands out a key.
          return send(response, 200, {
            accounts: accounts.map((account, index) => ({
              name: account.name,
              first: index === 0,
              baseUrl: account.url,
            })),
          });
        }
        if (pathname === '/api/conversation' && (request.method === 'GET' || request.method === 'POST')) {
          if (request.method === 'POST') {
            await readJson(request);
            conversations += 1;
          }
          return send(response, 200, { conversation: (await conversationNow()) ?? null });
        }
        // Approvals waiting for a person (src/approval/): the Worker's development-only desk, by reply code.
        if (pathname === '/api/approvals' && (request.method === 'GET' || request.method === 'POST')) {
          const approvals = await workerApprovals(request.method === 'POST' ? await readJson(request) : undefined);
          return send(response, approvals.status, approvals.body);
        }
        if (request.method === 'POST' && callName) {
          const input = (await readJson(request)) as { arguments?: unknown; account?: unknown };
          if (input.account !== undefined && typeof input.account !== 'string') {
            return send(response, 400, { error: 'account must be the name of an account of the local platform.' });
          }
          const answer = await call(callName, input.arguments, input.account);
          return send(response, answer.status, answer.body);
        }
        return send(response, 404, { error: 'Not found.' });
      } catch (error) {
        return send(response, 400, { error: (error as Error).message });
      }
    })();
  });
  let moved = false;
  try {
    await listen(server, options.port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await listen(server, 0);
    moved = true;
  }
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    ...(moved
      ? {
          note: `port ${options.port} is taken by another program, so the console listens on http://127.0.0.1:${port}.`,
        }
      : {}),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
