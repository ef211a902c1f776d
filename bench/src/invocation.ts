// Part 1: invocation throughput and latency of the project's Worker against the hand-written
// baseline, both on local workerd, run side by side (interleave.ts) so drift hits both alike.

import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from 'agent-functions/platform';
import { functionKey } from 'agent-functions/worker';
import { QUOTE_FUNCTION } from '../workers/quote.ts';
import type { BuiltWorker } from './buildWorker.ts';
import { interleavedLoad, type LoadSettings } from './interleave.ts';
import { measureIsolateCpuBothWays } from './isolateCpu.ts';
import type { LoadResult, LoadTarget } from './loadTest.ts';
import { BENCH_SECRET, BENCH_SIGNING_SECRET, type ServedWorker, serveWorker } from './serveWorker.ts';
import { median } from './stats.ts';

/** A valid call: all five fields, one of them optional. */
export const VALID_BODY = JSON.stringify({
  plan: 'growth',
  seats: 12,
  billing: 'yearly',
  email: 'ana@example.com',
  notes: 'Needs single sign-on',
});

/** An invalid call: two wrong fields, so both Workers build a two-problem 422. */
export const INVALID_BODY = JSON.stringify({ plan: 'growth', seats: 900, email: 'not-an-email' });

/** The measured combinations, in the order each round runs them (reversed every other round). */
export const CASES = [
  { id: 'project-10/valid', worker: 'project10', body: VALID_BODY, status: 200 },
  { id: 'baseline/valid', worker: 'baseline', body: VALID_BODY, status: 200 },
  { id: 'baseline-zod/valid', worker: 'baselineZod', body: VALID_BODY, status: 200 },
  { id: 'project-1000/valid', worker: 'project1000', body: VALID_BODY, status: 200 },
  { id: 'project-10/invalid', worker: 'project10', body: INVALID_BODY, status: 422 },
  { id: 'baseline/invalid', worker: 'baseline', body: INVALID_BODY, status: 422 },
  { id: 'baseline-zod/invalid', worker: 'baselineZod', body: INVALID_BODY, status: 422 },
  // The same Worker with PLATFORM_SIGNING_SECRET set: a call without signature headers, and a signed one.
  { id: 'project-signing/unsigned', worker: 'project10Signing', body: VALID_BODY, status: 200 },
  { id: 'project-signing/signed', worker: 'project10Signing', body: VALID_BODY, status: 200, signed: true },
] as const;

export type CaseId = (typeof CASES)[number]['id'];
type WorkerId = (typeof CASES)[number]['worker'];

/** The built Workers; project10Signing is project10's bundle served with a signing secret. */
type BuiltId = Exclude<WorkerId, 'project10Signing'>;

/** The platform's signature headers for `body` under `secret`, timestamped now (valid for 5 minutes). */
export const signatureHeaders = async (
  body: string,
  secret = BENCH_SIGNING_SECRET,
): Promise<Record<string, string>> => {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    [TIMESTAMP_HEADER]: timestamp,
    [SIGNATURE_HEADER]: await signWebhook(secret, timestamp, body),
  };
};

/** Every slice's result of every case. */
export type InvocationRounds = Record<CaseId, LoadResult[]>;

/** Median of one metric over the rounds of one case. */
export const medianOf = (rounds: LoadResult[], metric: keyof LoadResult): number =>
  median(rounds.map((r) => r[metric]));

/**
 * Serves the Workers and runs every case side by side (interleave.ts); the result holds one entry
 * per slice.
 * @example await measureInvocation({ baseline, baselineZod, project10, project1000 }, { rounds: 5, seconds: 2, connections: 10 })
 */
export const measureInvocation = async (
  workers: Record<BuiltId, BuiltWorker>,
  options: LoadSettings,
  progress: (line: string) => void = () => {},
): Promise<InvocationRounds> => {
  const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
  const served: Partial<Record<WorkerId, ServedWorker>> = {};
  try {
    for (const id of Object.keys(workers) as BuiltId[]) served[id] = await serveWorker(workers[id].scriptPath);
    served.project10Signing = await serveWorker(workers.project10.scriptPath, {
      bindings: { PLATFORM_SIGNING_SECRET: BENCH_SIGNING_SECRET },
    });
    return await loadCases(served, key, options, progress);
  } finally {
    for (const worker of Object.values(served)) await worker?.stop();
  }
};

/** Every case of part 1 against the served Workers, side by side. */
const loadCases = (
  served: Partial<Record<WorkerId, ServedWorker>>,
  key: string,
  options: LoadSettings,
  progress: (line: string) => void,
): Promise<InvocationRounds> => {
  const urlOf = (id: WorkerId) => new URL(`/functions/${QUOTE_FUNCTION}?key=${key}`, served[id]?.url).href;
  const byId = Object.fromEntries(CASES.map((c) => [c.id, c])) as Record<CaseId, (typeof CASES)[number]>;
  // A signed call's headers are made for each run: its timestamp is valid for 5 minutes.
  const targetOf = async (id: CaseId): Promise<LoadTarget> => {
    const c = byId[id];
    return {
      url: urlOf(c.worker),
      body: c.body,
      expectStatus: c.status,
      ...('signed' in c ? { headers: await signatureHeaders(c.body) } : {}),
    };
  };
  return interleavedLoad(
    CASES.map((c) => c.id),
    targetOf,
    options,
    'invocation',
    progress,
  );
};

/** CPU microseconds per call inside the isolate, per Worker, for valid and for invalid calls. */
export interface InvocationCpu {
  valid: Record<BuiltId, number[]>;
  invalid: Record<BuiltId, number[]>;
}

/**
 * The same calls as the load rounds, made from inside each Worker's isolate (isolateCpu.ts), so
 * the ratios come from CPU time rather than from a closed loop on a shared machine.
 * @example await measureInvocationCpu({ baseline, baselineZod, project10, project1000 }, { cpuBatches: 40, cpuCalls: 200 })
 */
export const measureInvocationCpu = async (
  workers: Record<BuiltId, BuiltWorker>,
  options: { cpuBatches: number; cpuCalls: number },
): Promise<InvocationCpu> => {
  const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
  const url = `https://bench.example/functions/${QUOTE_FUNCTION}?key=${key}`;
  const paths = Object.fromEntries(Object.entries(workers).map(([id, built]) => [id, built.scriptPath]));
  const run = (body: string, expectStatus: number) =>
    measureIsolateCpuBothWays(paths, { url, body, expectStatus }, options.cpuBatches, options.cpuCalls) as Promise<
      Record<BuiltId, number[]>
    >;
  return { valid: await run(VALID_BODY, 200), invalid: await run(INVALID_BODY, 422) };
};
