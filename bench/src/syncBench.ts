// Part 3: requests and wall time of sync for 200 functions against the local platform emulator,
// through the real sync code (scripts/sync) and the real emulator (scripts/platform).

import type { FunctionRecord } from 'agent-functions/platform';
import { startEmulator } from '../../scripts/platform/emulator.ts';
import { desiredFunctions, type ServedFunction } from '../../scripts/project/manifest.ts';
import { accountApi } from '../../scripts/sync/accountApi.ts';
import { syncAccount } from '../../scripts/sync/apply.ts';
import { loadBenchModules } from './benchModules.ts';

const ORIGIN = 'https://bench.example.dev';
const SECRET = 'bench-functions-secret';

/** One sync run as the platform saw it. */
export interface SyncRunResult {
  scenario: string;
  /** List requests (GET) the platform answered, 429s included. */
  reads: number;
  /** Create, update and delete requests the platform answered, 429s included. */
  writes: number;
  rateLimited: number;
  wallMs: number;
  status: string;
}

/** The manifest of `count` generated functions, translated by the project's own registry. */
export const servedFunctions = async (count: number): Promise<ServedFunction[]> => {
  const { benchFunctions, createRegistry } = await loadBenchModules();
  const registry = createRegistry(benchFunctions(count));
  return registry.names().map((name) => {
    const manifest = registry.get(name)?.manifest;
    if (!manifest) throw new Error(`no manifest for ${name}`);
    return { name, description: manifest.description, parameters: manifest.parameters, path: manifest.path };
  });
};

/**
 * First run, no-op rerun, 10 changed, and a first run under a rate-limit storm, for `count` functions.
 * @example await measureSync(200, { storm: true })
 */
export const measureSync = async (count: number, options: { storm: boolean }): Promise<SyncRunResult[]> => {
  const desired = await desiredFunctions(await servedFunctions(count), ORIGIN, SECRET);
  const results: SyncRunResult[] = [];
  // The emulator's own per-key limit stays on (600 a minute), as a user trying sync locally has it.
  const platform = await startEmulator({ port: 0 });
  const key = platform.accounts.find((a) => a.plan === 'business')?.apiKey ?? '';
  const run = async (scenario: string, wanted: FunctionRecord[]) => {
    const since = platform.log().length;
    const started = performance.now();
    const { api } = accountApi({ baseUrl: platform.url, apiKey: key });
    const report = await syncAccount({
      account: 'bench',
      baseUrl: platform.url,
      api,
      desired: wanted,
      origin: ORIGIN,
      prune: false,
      dryRun: false,
    });
    const wallMs = performance.now() - started;
    const seen = platform.log().slice(since);
    results.push({
      scenario,
      reads: seen.filter((r) => r.method === 'GET').length,
      writes: seen.filter((r) => r.method !== 'GET').length,
      rateLimited: seen.filter((r) => r.status === 429).length,
      wallMs,
      status: report.status,
    });
  };
  try {
    await run('first run', desired);
    await run('no-op rerun', desired);
    const changed = desired.map((fn, i) =>
      i % (count / 10) === 0 ? { ...fn, description: `${fn.description} (v2)` } : fn,
    );
    await run('10 changed', changed);
  } finally {
    await platform.close();
  }
  if (!options.storm) return results;
  // A storm: a fresh platform answers 429 (Retry-After: 1) to its first 6 requests, then to every 10th.
  const stormy = await startEmulator({
    port: 0,
    faults: { rateLimitStorm: { first: 6, everyNth: 10, retryAfter: '1' } },
  });
  try {
    const stormKey = stormy.accounts.find((a) => a.plan === 'business')?.apiKey ?? '';
    const since = stormy.log().length;
    const started = performance.now();
    const { api } = accountApi({ baseUrl: stormy.url, apiKey: stormKey });
    const report = await syncAccount({
      account: 'bench',
      baseUrl: stormy.url,
      api,
      desired,
      origin: ORIGIN,
      prune: false,
      dryRun: false,
    });
    const seen = stormy.log().slice(since);
    results.push({
      scenario: 'first run, rate-limit storm',
      reads: seen.filter((r) => r.method === 'GET').length,
      writes: seen.filter((r) => r.method !== 'GET').length,
      rateLimited: seen.filter((r) => r.status === 429).length,
      wallMs: performance.now() - started,
      status: report.status,
    });
  } finally {
    await stormy.close();
  }
  return results;
};
