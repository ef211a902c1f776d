// Which port the Worker of `npm run dev` listens on, decided by dev before wrangler starts, so dev
// and wrangler never disagree: a --port that another program holds is refused with one line; the
// default (8787) taken means a free port, passed to wrangler and said. (wrangler on its own moves
// to another port quietly, and dev then talked to the other program.)
import { createServer } from 'node:net';

/** The Worker's port when none is asked for (wrangler dev's own default). */
export const DEFAULT_WORKER_PORT = 8787;

/** Whether nothing listens on `host`:`port` (an address this machine does not have counts as free). */
export const portFree = (port: number, host: string): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code !== 'EADDRINUSE'));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });

const freeOnAll = async (port: number, hosts: readonly string[]): Promise<boolean> =>
  (await Promise.all(hosts.map((host) => portFree(port, host)))).every(Boolean);

const anyPort = (host: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** The addresses wrangler dev listens on for `--ip` (its default, localhost, is both loopbacks). */
export const hostsOf = (ip: string | undefined): string[] =>
  ip === undefined || ip === 'localhost' ? ['127.0.0.1', '::1'] : [ip];

export interface WorkerPort {
  port: number;
  /** Set when the default was taken and another port chosen. */
  note?: string;
}

/**
 * The port for the Worker: `given` (--port) when free, else an error naming it; without one the
 * default when free, else a free one and a note.
 * @example await chooseWorkerPort(undefined, ['127.0.0.1']) // { port: 8787 }
 */
export const chooseWorkerPort = async (
  given: number | undefined,
  hosts: readonly string[],
  defaultPort = DEFAULT_WORKER_PORT,
): Promise<WorkerPort> => {
  if (given !== undefined && given !== 0) {
    if (await freeOnAll(given, hosts)) return { port: given };
    throw new Error(
      `Port ${given} (--port) is taken by another program. Stop that program, or choose another port (npm run dev -- --port 9000), or leave --port out and dev picks a free one.`,
    );
  }
  if (given === undefined && (await freeOnAll(defaultPort, hosts))) return { port: defaultPort };
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await anyPort(hosts[0] ?? '127.0.0.1');
    if (await freeOnAll(port, hosts)) {
      return given === 0
        ? { port }
        : { port, note: `port ${defaultPort} is taken by another program, so the Worker listens on port ${port}.` };
    }
  }
  throw new Error(`No free port for the Worker on ${hosts.join(' and ')}; name one with --port.`);
};
