// The local platform on Node (docs/platform-contract.md §6): the fetch handler of platform.ts behind
// node:http, on 127.0.0.1 by default. Node-only; the Worker never imports it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { localSurfaceRefusal } from 'agent-functions/internal';
import { EmulatorError, errorAnswer } from './http.ts';
import { ConnectionDropped, createPlatform, type Platform, type PlatformOptions } from './platform.ts';

export type { FaultOptions } from './faults.ts';
export type { LoggedRequest } from './platform.ts';
export type { AccountOptions, AccountPlan, SeededAccount } from './state.ts';

/** The default port (docs/platform-contract.md §2). */
export const DEFAULT_PORT = 8788;

export interface EmulatorOptions extends PlatformOptions {
  /** 0 picks a free port (tests). Default 8788. */
  port?: number;
  /** Default 127.0.0.1: the emulator is for this machine only. */
  host?: string;
}

export interface RunningEmulator extends Omit<Platform, 'fetch'> {
  /** Base URL to use as PLATFORM_BASE_URL, for example http://127.0.0.1:8788. */
  url: string;
  close(): Promise<void>;
}

// The body as a web stream; cancelling it (a body over the limit) drains the rest instead of
// closing the socket, so the 413 still reaches the client.
const bodyOf = (request: IncomingMessage): ReadableStream<Uint8Array> => {
  let open = true;
  return new ReadableStream({
    start(controller) {
      request.on('data', (chunk: Buffer) => open && controller.enqueue(new Uint8Array(chunk)));
      request.on('end', () => open && controller.close());
      request.on('error', (error) => open && controller.error(error));
    },
    cancel() {
      open = false;
      request.resume();
    },
  });
};

const toRequest = (request: IncomingMessage, origin: string): Request => {
  const headers = new Headers();
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
    headers.append(request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string);
  }
  const method = request.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: bodyOf(request), duplex: 'half' });
  return new Request(new URL(request.url ?? '/', origin), init);
};

const send = async (answer: Response, response: ServerResponse) => {
  const body = Buffer.from(await answer.arrayBuffer());
  const headers: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(answer.status, { ...headers, 'content-length': body.length });
  response.end(body);
};

/**
 * Starts the local platform.
 * @example const platform = await startEmulator({ port: 0, pageSize: 2 }); // platform.url, platform.accounts
 */
export const startEmulator = async (options: EmulatorOptions = {}): Promise<RunningEmulator> => {
  const { port, host, ...platformOptions } = options;
  const platform = createPlatform(platformOptions);
  let origin = 'http://127.0.0.1';

  // It hands out signing secrets to anyone with the well-known local keys: only programs on this
  // machine may ask, never a web page of another site or a rebound host name (docs/security.md).
  const allowedHosts = host && host !== '0.0.0.0' && host !== '::' ? [host.toLowerCase()] : [];
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    try {
      const refused = localSurfaceRefusal(request.headers.host, request.headers.origin, allowedHosts);
      if (refused) {
        await send(errorAnswer(new EmulatorError(403, refused.code, refused.message)), response);
        request.resume();
        return;
      }
      const answer = await platform.fetch(toRequest(request, origin));
      if (!response.destroyed) await send(answer, response);
    } catch (error) {
      if (!(error instanceof ConnectionDropped)) console.error(error);
      request.socket.destroy();
    }
  };

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? DEFAULT_PORT, host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  origin = `http://${hostname}:${address.port}`;

  const { fetch: _fetch, ...rest } = platform;
  return {
    ...rest,
    url: origin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
};
