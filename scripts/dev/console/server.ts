// The local console of `npm run dev`: a page listing every function exactly as the platform received
// it, a form per function that calls it through the Worker, and one timeline of those calls and of
// what the local platform did (its calls as the agent, event deliveries and their answers, the
// messages sent, each beside its cause). With several accounts (platform.accounts.json), each item
// names its account, and a call can be made as any account's agent, through that account's url.
// Served by the Node dev process on 127.0.0.1; nothing here is ever bundled into the Worker.
// This file is the server (guards, listening); routes.ts answers each request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localSurfaceRefusal } from 'agent-functions/internal';
import { routeConsole } from './routes.ts';
import { type ConsoleState, consoleState } from './state.ts';
import type { ConsoleOptions, RunningConsole } from './types.ts';

export type { ConsoleAccount, ConsoleFunction, ConsoleListing, ConsoleOptions, RunningConsole } from './types.ts';
export { maskKey } from './types.ts';

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

/** Answers one request: the guards first, then the routes; a route's error is a 400 with its message. */
const handle = async (state: ConsoleState, request: IncomingMessage, response: ServerResponse) => {
  const { pathname, searchParams } = new URL(request.url ?? '/', 'http://console.invalid');
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
    const answer = await routeConsole(state, {
      method: request.method ?? 'GET',
      pathname,
      searchParams,
      body: () => readJson(request),
    });
    return send(response, answer.status, answer.body, answer.type);
  } catch (error) {
    return send(response, 400, { error: (error as Error).message });
  }
};

/** Listens on `port`, or on a free one when another program has it (`moved`). */
const listenNear = async (server: ReturnType<typeof createServer>, port: number): Promise<boolean> => {
  try {
    await listen(server, port);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    await listen(server, 0);
    return true;
  }
};

/**
 * Starts the console.
 * @example const console = await startConsole({ port: 8789, functions, urlOf }); // console.url
 */
export const startConsole = async (options: ConsoleOptions): Promise<RunningConsole> => {
  const state = consoleState(options);
  const server = createServer((request, response) => {
    void handle(state, request, response);
  });
  const moved = await listenNear(server, options.port);
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
