// Serves a bundled Worker on local workerd through Miniflare, on 127.0.0.1 only.
import { dirname } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';

/** The secret both benchmark Workers derive their keys from; a benchmark-only value. */
export const BENCH_SECRET = 'bench-functions-secret';

/** A Worker running on workerd until stopped. */
export interface ServedWorker {
  url: URL;
  stop(): Promise<void>;
}

/**
 * Starts `scriptPath` (an ES module bundle) on workerd; log lines are read and dropped so both
 * Workers pay for writing them and neither pays for a terminal.
 * @example const served = await serveWorker('/tmp/bench/baseline/baseline.js')
 */
export const serveWorker = async (scriptPath: string): Promise<ServedWorker> => {
  // Miniflare 5 takes per-worker `config` objects; its converter accepts the familiar v4 shape.
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      modules: true,
      scriptPath,
      // Resolved against the bundle's own folder: workerd fails to start the bundle when its root
      // is the project folder (tried: "internal error" at start-up from the repo root, fine elsewhere).
      rootPath: dirname(scriptPath),
      compatibilityDate: '2026-11-01',
      // No Request.cf lookup over the network: a benchmark reaches nothing but 127.0.0.1.
      cf: false,
      bindings: { FUNCTIONS_SECRET: BENCH_SECRET },
      host: '127.0.0.1',
      port: 0,
      handleStructuredLogs: () => {},
      // A socket straight into this Worker, skipping Miniflare's entry Worker (a proxy hop both
      // Workers would pay, which would dilute the ratio between them).
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    }),
  );
  await mf.ready;
  const url = await mf.unsafeGetDirectURL();
  return { url, stop: () => mf.dispose() };
};
