// Serves a bundled Worker on local workerd through Miniflare, on 127.0.0.1 only.
import { dirname } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';

/** The secret both benchmark Workers derive their keys from; a benchmark-only value. */
export const BENCH_SECRET = 'bench-functions-secret';

/** The platform signing secret of the Worker that measures signed calls; a benchmark-only value. */
export const BENCH_SIGNING_SECRET = 'bench-signing-secret';

/** A Worker running on workerd until stopped. */
export interface ServedWorker {
  url: URL;
  /** The Worker's V8 inspector (only when served with `inspectorPort`). */
  inspector(): Promise<Inspector>;
  stop(): Promise<void>;
}

/** A DevTools protocol session with the Worker's isolate. */
export interface Inspector {
  send(method: string, params?: object): Promise<unknown>;
  close(): void;
}

const WORKER_NAME = 'bench';

/** Miniflare's shape of `{ BINDING: dataset }`. */
export const datasets = (bindings: Record<string, string>): Record<string, { dataset: string }> =>
  Object.fromEntries(Object.entries(bindings).map(([binding, dataset]) => [binding, { dataset }]));

const openInspector = async (base: URL): Promise<Inspector> => {
  const socket = new WebSocket(new URL(`/core:user:${WORKER_NAME}`, base));
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', () => reject(new Error('cannot reach the Worker inspector')), { once: true });
  });
  const pending = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  let next = 0;
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        const id = ++next;
        pending.set(id, resolve);
        socket.send(JSON.stringify({ id, method, params }));
      }),
    close: () => socket.close(),
  };
};

/** What a served Worker is given beside its bundle. */
export interface ServeOptions {
  inspectorPort?: number;
  bindings?: Record<string, string>;
  /** Queue producer bindings, `{ BINDING: queue name }` (the events Worker's EVENTS_QUEUE). */
  queueProducers?: Record<string, string>;
  /** Durable Object bindings, `{ BINDING: class name }` (SQLite-backed). */
  durableObjects?: Record<string, string>;
  /** Workflow bindings, `{ BINDING: { name, className } }`. */
  workflows?: Record<string, { name: string; className: string }>;
  /** Each log line the Worker writes (by default read and dropped). */
  onLog?: (line: string) => void;
  /** Analytics Engine dataset bindings, `{ BINDING: dataset }` (the metrics Worker's CALL_RECORDS). */
  analyticsEngineDatasets?: Record<string, string>;
}

/** One Worker's Miniflare options (the v4 shape its converter accepts), named `name`. */
const workerOptions = (name: string, scriptPath: string, options: ServeOptions) => ({
  name,
  modules: true,
  scriptPath,
  // Resolved against the bundle's own folder: workerd fails to start the bundle when its root
  // is the project folder (tried: "internal error" at start-up from the repo root, fine elsewhere).
  rootPath: dirname(scriptPath),
  compatibilityDate: '2026-11-01',
  bindings: { FUNCTIONS_SECRET: BENCH_SECRET, ...options.bindings },
  ...(options.queueProducers ? { queueProducers: options.queueProducers } : {}),
  ...(options.durableObjects
    ? {
        durableObjects: Object.fromEntries(
          Object.entries(options.durableObjects).map(([binding, className]) => [
            binding,
            { className, useSQLite: true },
          ]),
        ),
      }
    : {}),
  ...(options.workflows ? { workflows: options.workflows } : {}),
  ...(options.analyticsEngineDatasets ? { analyticsEngineDatasets: datasets(options.analyticsEngineDatasets) } : {}),
  // A socket straight into this Worker, skipping Miniflare's entry Worker (a proxy hop both
  // Workers would pay, which would dilute the ratio between them).
  unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
});

/** Miniflare's options shared by every Worker of one workerd process. */
const processOptions = (onLog: ((line: string) => void) | undefined) => ({
  // No Request.cf lookup over the network: a benchmark reaches nothing but 127.0.0.1.
  cf: false,
  host: '127.0.0.1',
  port: 0,
  handleStructuredLogs: ({ message }: { message: string }) => onLog?.(message),
});

/**
 * Starts `scriptPath` (an ES module bundle) on workerd; log lines are read and dropped so both
 * Workers pay for writing them and neither pays for a terminal.
 * @example const served = await serveWorker('/tmp/bench/baseline/baseline.js')
 */
export const serveWorker = async (scriptPath: string, options: ServeOptions = {}): Promise<ServedWorker> => {
  // Miniflare 5 takes per-worker `config` objects; its converter accepts the familiar v4 shape.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...workerOptions(WORKER_NAME, scriptPath, options),
      ...(options.inspectorPort === undefined ? {} : { inspectorPort: options.inspectorPort }),
      ...processOptions(options.onLog),
    }),
  );
  await mf.ready;
  const url = await mf.unsafeGetDirectURL();
  return {
    url,
    inspector: async () => openInspector(await mf.getInspectorURL()),
    stop: () => mf.dispose(),
  };
};

/**
 * Starts several bundles in one workerd process, each on its own socket: Workers compared call by
 * call then share one thread and one core, so nothing about the process favours either.
 * @example const { urls, stop } = await serveWorkers({ off: { scriptPath: off }, on: { scriptPath: on, options } })
 */
export const serveWorkers = async <Name extends string>(
  workers: Record<Name, { scriptPath: string; options?: Omit<ServeOptions, 'inspectorPort' | 'onLog'> }>,
): Promise<{ urls: Record<Name, URL>; stop(): Promise<void> }> => {
  const names = Object.keys(workers) as Name[];
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...processOptions(undefined),
      workers: names.map((name) => workerOptions(name, workers[name].scriptPath, workers[name].options ?? {})),
    }),
  );
  await mf.ready;
  const urls = {} as Record<Name, URL>;
  for (const name of names) urls[name] = await mf.unsafeGetDirectURL(name);
  return { urls, stop: () => mf.dispose() };
};
