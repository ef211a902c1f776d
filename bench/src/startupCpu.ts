// Start-up CPU from the operating system's count of workerd's CPU time (Linux: the nanosecond
// run time of workerd's main thread in /proc/<pid>/task/<pid>/schedstat). Unlike a profile's sample
// deltas, which are wall-clock and so grow whenever the shared machine runs someone else, this
// counts only the time workerd itself ran.
//
// One run starts one workerd holding copies of every bundle, each its own Worker (its own isolate)
// wrapped in a module that imports the bundle on the first request, as `wrangler check startup`
// does. Each Worker's first request is counted alone, on workerd's main thread (where isolates run
// JavaScript); an empty bundle's first request just before is the control and is subtracted, so
// what remains is the bundle's own start-up: compiling and evaluating its modules.
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { BENCH_SECRET } from './serveWorker.ts';
import { mainThreadCpuNs, workerdChildren } from './workerdCpu.ts';

const CONTROL = '__control';
const WARM_UP = '__warm_up';
const EMPTY_MODULE = 'export default { fetch: () => new Response("ok") };';

const probeWorker = (name: string, bundle: string) => ({
  name,
  modules: [
    {
      type: 'ESModule' as const,
      path: 'probe.mjs',
      contents: `export default { async fetch() { await import('./main.mjs'); return new Response('ok'); } };`,
    },
    { type: 'ESModule' as const, path: 'main.mjs', contents: bundle },
  ],
  modulesRoot: '/',
  compatibilityDate: '2026-11-01',
  bindings: { FUNCTIONS_SECRET: BENCH_SECRET },
  unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
});

/**
 * Start-up CPU in ms of every bundle, `copies` times in each of `runs` fresh workerd processes:
 * per copy round, one isolate of each bundle in rotated order, each minus that round's empty control.
 * Entry k of every list comes from the same round of the same process, so lists can be paired.
 * @example await measureStartup({ project: source, bareZod: zodSource }, 4, 4)
 */
export const measureStartup = async (
  bundles: Record<string, string>,
  runs: number,
  copies: number,
  progress: (line: string) => void = () => {},
): Promise<Record<string, number[]>> => {
  const names = Object.keys(bundles);
  const result: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let run = 0; run < runs; run++) {
    progress(`start-up CPU: workerd process ${run + 1}/${runs}, ${copies} isolate(s) of each bundle`);
    const workers = [probeWorker(WARM_UP, EMPTY_MODULE)];
    for (let copy = 0; copy < copies; copy++) {
      workers.push(probeWorker(`${CONTROL}-${copy}`, EMPTY_MODULE));
      for (const name of names) workers.push(probeWorker(`${name}-${copy}`, bundles[name] as string));
    }
    const before = await workerdChildren();
    const mf = new Miniflare(
      convertV4MiniflareOptions({ host: '127.0.0.1', port: 0, cf: false, handleStructuredLogs: () => {}, workers }),
    );
    try {
      await mf.ready;
      const started = [...(await workerdChildren())].filter((pid) => !before.has(pid));
      if (started.length !== 1) throw new Error(`expected one new workerd process, found ${started.length}`);
      const pid = started[0] as number;
      const firstRequestMs = async (worker: string): Promise<number> => {
        const url = await mf.unsafeGetDirectURL(worker);
        const start = await mainThreadCpuNs(pid);
        const response = await fetch(url);
        await response.text();
        if (!response.ok) throw new Error(`start-up probe of ${worker}: status ${response.status}`);
        return ((await mainThreadCpuNs(pid)) - start) / 1e6;
      };
      await firstRequestMs(WARM_UP);
      for (let copy = 0; copy < copies; copy++) {
        const control = await firstRequestMs(`${CONTROL}-${copy}`);
        const shift = (run * copies + copy) % names.length;
        for (const name of [...names.slice(shift), ...names.slice(0, shift)]) {
          result[name]?.push((await firstRequestMs(`${name}-${copy}`)) - control);
        }
      }
    } finally {
      await mf.dispose();
    }
  }
  return result;
};
