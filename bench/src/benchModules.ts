// The project's registry and the generated bench definitions, loaded by URL at run time: a static
// import would pull the Worker's types (src/env.ts, Durable Objects) into the Node type-check of
// scripts/, where they do not exist. The shapes below are the parts the runner reads.

import type { ServedFunction } from '../../scripts/project/manifest.ts';

/** What the runner reads of a registered function. */
export interface BenchRegistry {
  get(name: string): { manifest: ServedFunction & { name: string; path: string } } | undefined;
  names(): string[];
}

/** bench/workers/benchFunctions.ts and src/registry.ts, as the runner uses them. */
export interface BenchModules {
  benchFunctions(count: number): Record<string, unknown>;
  createRegistry(definitions: Record<string, unknown>): BenchRegistry;
}

const ROOT_URL = new URL('../../', import.meta.url);

/**
 * Imports the two modules (Node strips their types on the way).
 * @example const { benchFunctions, createRegistry } = await loadBenchModules()
 */
export const loadBenchModules = async (): Promise<BenchModules> => {
  const { benchFunctions } = (await import(new URL('bench/workers/benchFunctions.ts', ROOT_URL).href)) as BenchModules;
  const { createRegistry } = (await import(new URL('src/registry.ts', ROOT_URL).href)) as BenchModules;
  return { benchFunctions, createRegistry };
};
