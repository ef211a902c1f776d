// Part 1e: a call through the last account of a Worker serving 5,000 (bench/workers/projectWithAccounts.ts)
// against the same call on the single-account project Worker, side by side (interleave.ts); and how
// often the Worker read each account's key from its store while it served them.
import { functionKey } from 'agent-functions/worker';
import { ACCOUNTS } from '../workers/accountsScale.ts';
import { QUOTE_FUNCTION } from '../workers/quote.ts';
import type { BuiltWorker } from './buildWorker.ts';
import { interleavedLoad, type LoadSettings } from './interleave.ts';
import { VALID_BODY } from './invocation.ts';
import type { LoadResult, LoadTarget } from './loadTest.ts';
import { BENCH_SECRET, serveWorker } from './serveWorker.ts';

/** Every round of both cases, and the store reads the many-account Worker made. */
export interface AccountsResults {
  single: LoadResult[];
  lastOf500: LoadResult[];
  accounts: number;
  /** Store reads of the account called, over the whole run (one per isolate and minute is the target). */
  storeReads: number;
  /** How long the run served that account, in minutes (rounded up). */
  minutes: number;
}

/**
 * Serves both Workers and measures part 1e.
 * @example await measureAccounts(built.project, built.projectWithAccounts, settings)
 */
export const measureAccounts = async (
  single: BuiltWorker,
  many: BuiltWorker,
  options: LoadSettings,
  progress: (line: string) => void = () => {},
): Promise<AccountsResults> => {
  const last = `client-${ACCOUNTS}`;
  const bindings = { PLATFORM_API_KEY: 'bench-platform-key', PLATFORM_BASE_URL: 'https://platform.example' };
  const servedSingle = await serveWorker(single.scriptPath, { bindings });
  const servedMany = await serveWorker(many.scriptPath, { bindings });
  try {
    const started = Date.now();
    const cases: Record<'single' | 'lastOf500', LoadTarget> = {
      single: {
        url: new URL(
          `/functions/${QUOTE_FUNCTION}?key=${await functionKey(BENCH_SECRET, QUOTE_FUNCTION)}`,
          servedSingle.url,
        ).href,
        body: VALID_BODY,
        expectStatus: 200,
      },
      lastOf500: {
        url: new URL(
          `/functions/${QUOTE_FUNCTION}?account=${last}&key=${await functionKey(BENCH_SECRET, QUOTE_FUNCTION, last)}`,
          servedMany.url,
        ).href,
        body: VALID_BODY,
        expectStatus: 200,
      },
    };
    const results = await interleavedLoad(
      ['single', 'lastOf500'] as const,
      (name) => cases[name],
      options,
      'accounts',
      progress,
    );
    const reads = (await (await fetch(new URL('/bench/store-reads', servedMany.url))).json()) as Record<string, number>;
    return {
      ...results,
      accounts: ACCOUNTS,
      storeReads: reads[last] ?? 0,
      minutes: Math.max(1, Math.ceil((Date.now() - started) / 60_000)),
    };
  } finally {
    await servedSingle.stop();
    await servedMany.stop();
  }
};
