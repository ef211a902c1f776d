// CPU per call inside the isolate: a driver module in the same workerd isolate calls a bundle's
// fetch handler `calls` times back to back (a real Request and Response each time, no socket),
// and workerd's main-thread CPU time around that one driver request, divided by `calls`, is the
// cost of one call. Short batches of every Worker alternate many times, so each Worker's batch
// k ran next to the others' batch k and their ratio is read before the shared machine changes.
// Closed-loop req/s on 2 shared cores moves by +-20% between rounds; these ratios by a few %.
import { readFile } from 'node:fs/promises';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { BENCH_SECRET } from './serveWorker.ts';
import { mainThreadCpuNs, workerdChildren } from './workerdCpu.ts';

/** One call shape, sent the same way to every Worker. */
export interface IsolateCall {
  url: string;
  body: string;
  expectStatus: number;
}

/** Per bundle: Miniflare options of its Worker (bindings beyond the secret), and the classes its entry exports. */
export type WorkerExtras = Record<string, { options?: object; exports?: string[] }>;

const driver = (call: IsolateCall, reexports: string[]) => `import worker from './main.mjs';
${reexports.length > 0 ? `export { ${reexports.join(', ')} } from './main.mjs';` : ''}
const CALL = ${JSON.stringify(call)};
export default {
  async fetch(request, env, ctx) {
    const calls = Number(new URL(request.url).searchParams.get('calls'));
    let unexpected = 0;
    for (let i = 0; i < calls; i++) {
      const init = { method: 'POST', body: CALL.body, headers: { 'content-type': 'application/json', 'content-length': String(new TextEncoder().encode(CALL.body).byteLength) } };
      const response = await worker.fetch(new Request(CALL.url, init), env, ctx);
      await response.text();
      if (response.status !== CALL.expectStatus) unexpected++;
    }
    return new Response(String(unexpected));
  },
};`;

/**
 * Microseconds of CPU per call of each bundle (by name), `batches` alternating batches of `calls`.
 * @example await measureIsolateCpu({ baseline: '/tmp/b.js', project: '/tmp/p.js' }, call, 40, 200)
 */
export const measureIsolateCpu = async (
  bundles: Record<string, string>,
  call: IsolateCall,
  batches: number,
  calls: number,
  extra: WorkerExtras = {},
): Promise<Record<string, number[]>> => {
  const names = Object.keys(bundles);
  const before = await workerdChildren();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: '127.0.0.1',
      port: 0,
      cf: false,
      handleStructuredLogs: () => {},
      workers: await Promise.all(
        names.map(async (name) => ({
          name,
          modulesRoot: '/',
          compatibilityDate: '2026-11-01',
          bindings: { FUNCTIONS_SECRET: BENCH_SECRET },
          ...extra[name]?.options,
          modules: [
            { type: 'ESModule' as const, path: 'driver.mjs', contents: driver(call, extra[name]?.exports ?? []) },
            { type: 'ESModule' as const, path: 'main.mjs', contents: await readFile(bundles[name] as string, 'utf8') },
          ],
          unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
        })),
      ),
    }),
  );
  const result: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  try {
    await mf.ready;
    const started = [...(await workerdChildren())].filter((pid) => !before.has(pid));
    if (started.length !== 1) throw new Error(`expected one new workerd process, found ${started.length}`);
    const pid = started[0] as number;
    const batch = async (name: string, count: number): Promise<number> => {
      const url = await mf.unsafeGetDirectURL(name);
      url.searchParams.set('calls', String(count));
      const start = await mainThreadCpuNs(pid);
      const unexpected = await (await fetch(url)).text();
      const micros = ((await mainThreadCpuNs(pid)) - start) / 1000 / count;
      if (unexpected !== '0') throw new Error(`${name}: ${unexpected} of ${count} calls had the wrong status`);
      return micros;
    };
    // Warm-up: JIT, the key import, each function's translation.
    for (const name of names) await batch(name, calls * 2);
    for (let k = 0; k < batches; k++) {
      const order = k % 2 === 0 ? names : [...names].reverse();
      for (const name of order) result[name]?.push(await batch(name, calls));
    }
  } finally {
    await mf.dispose();
  }
  return result;
};

/**
 * `measureIsolateCpu` in two workerd processes, the bundles listed in `bundles`' order in the first
 * and the other way round in the second, `batches` shared between them; batch k of every Worker
 * still ran side by side. Two Workers of one process differ by up to 4% for the same bundle, one
 * way or the other, from process to process (an A/A check): one process's ratios carry its offset.
 * @example await measureIsolateCpuBothWays({ off: '/tmp/off.js', on: '/tmp/on.js' }, call, 200, 200)
 */
export const measureIsolateCpuBothWays = async (
  bundles: Record<string, string>,
  call: IsolateCall,
  batches: number,
  calls: number,
  extra: WorkerExtras = {},
  measure: typeof measureIsolateCpu = measureIsolateCpu,
): Promise<Record<string, number[]>> => {
  const names = Object.keys(bundles);
  const result: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const order of [names, [...names].reverse()]) {
    const listed = Object.fromEntries(order.map((name) => [name, bundles[name] as string]));
    const cpu = await measure(listed, call, Math.ceil(batches / 2), calls, extra);
    for (const name of names) result[name]?.push(...(cpu[name] ?? []));
  }
  return result;
};
