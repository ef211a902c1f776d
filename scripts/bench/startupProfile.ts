// Start-up CPU from `wrangler check startup`, which loads a bundle in workerd under the V8
// profiler and writes a .cpuprofile of the module's first evaluation.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { ROOT, WRANGLER, wranglerEnv } from './buildWorker.ts';

const run = promisify(execFile);

/** The parts of a V8 .cpuprofile read here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string } }[];
  samples?: number[];
  timeDeltas?: number[];
}

// Samples that are not the Worker's own start-up work: the isolate waiting, and time V8 cannot
// attribute to JavaScript (workerd's own bookkeeping around the profiled request).
const NOT_ACTIVE = new Set(['(idle)', '(program)']);

/**
 * Active CPU of a profile in milliseconds: each sample's time delta, summed over samples whose
 * node is not (idle) or (program). Garbage collection counts: start-up allocations cause it.
 * @example activeCpuMs(JSON.parse(await readFile('worker-startup.cpuprofile', 'utf8')))
 */
export const activeCpuMs = (profile: CpuProfile): number => {
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  const samples = profile.samples ?? [];
  let micros = 0;
  for (const [i, delta] of (profile.timeDeltas ?? []).entries()) {
    if (!NOT_ACTIVE.has(names.get(samples[i] ?? -1) ?? '(idle)')) micros += delta;
  }
  return micros / 1000;
};

/**
 * Runs `wrangler check startup` on a prebuilt upload bundle and returns its active CPU in ms.
 * @example await startupCpuMs('/tmp/bench/baseline/worker.bundle', '/tmp/bench/baseline/1.cpuprofile')
 */
export const startupCpuMs = async (bundlePath: string, outfile: string): Promise<number> => {
  await run(
    process.execPath,
    [WRANGLER, 'check', 'startup', '--worker', bundlePath, '--outfile', outfile, '-c', 'bench/wrangler.toml'],
    { cwd: ROOT, env: wranglerEnv(), maxBuffer: 16 * 1024 * 1024 },
  );
  return activeCpuMs(JSON.parse(await readFile(outfile, 'utf8')) as CpuProfile);
};
