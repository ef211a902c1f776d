// `npm run accounts -- list`: the accounts of the file, where each key lives, whether it is stored.
// Never a key: the store answers names and dates, and a variable is said to be set, not shown.

import { StoreError } from '../project/accountStore.ts';
import { paintFor } from '../registration/paint.ts';
import { type Run, UsageError, workerOf } from './run.ts';

/** Prints each account of the file, where its key lives and whether it is stored (--json: one document). */
export const list = async ({ io, flags, config }: Run): Promise<number> => {
  let stored: Map<string, number> | undefined;
  let storeProblem: string | undefined;
  if (config.accounts.some((account) => !account.apiKeyEnv)) {
    try {
      stored = new Map((await workerOf(io).store.list()).map((entry) => [entry.name, entry.updatedAt]));
    } catch (error) {
      if (!(error instanceof StoreError || error instanceof UsageError)) throw error;
      storeProblem = error.message;
    }
  }
  const rows = config.accounts.map((account, i) => {
    const inStore = !account.apiKeyEnv;
    const updatedAt = inStore ? stored?.get(account.name) : undefined;
    return {
      name: account.name,
      first: i === 0,
      key: inStore ? 'store' : `variable ${account.apiKeyEnv}`,
      // A variable's value is this run's, not the Worker's: say only whether this run has it.
      stored: inStore ? (stored ? updatedAt !== undefined : null) : null,
      ...(inStore && updatedAt !== undefined ? { updatedAt: new Date(updatedAt).toISOString() } : {}),
      ...(!inStore ? { setHere: Boolean(io.env[account.apiKeyEnv as string]?.trim()) } : {}),
      baseUrl: account.baseUrl ?? `from ${account.baseUrlEnv ?? 'PLATFORM_BASE_URL'}`,
    };
  });
  if (flags.json) {
    io.stdout.write(`${JSON.stringify({ accounts: rows, ...(storeProblem ? { storeProblem } : {}) }, null, 2)}\n`);
    return storeProblem ? 1 : 0;
  }
  const paint = paintFor(io.stdout);
  for (const row of rows) {
    const state =
      row.key === 'store'
        ? row.stored === null
          ? paint.yellow('store not reached')
          : row.stored
            ? paint.green(`stored ${row.updatedAt}`)
            : paint.red('not stored')
        : row.setHere
          ? 'set in this run'
          : paint.dim('not set in this run');
    io.stdout.write(`${row.name}${row.first ? ' (first)' : ''}  key: ${row.key}, ${state}  platform: ${row.baseUrl}\n`);
  }
  if (storeProblem) io.stderr.write(`${storeProblem}\n`);
  return storeProblem ? 1 : 0;
};
