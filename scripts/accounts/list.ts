// `npm run accounts -- list`: the accounts of the file, where each key lives, whether it is stored;
// --filter, --limit and --after select a page, so a file of 5,000 clients is read a screen at a time.
// Never a key: the store answers names and dates, and a variable is said to be set, not shown.

import { StoreError } from '../project/accountStore.ts';
import { paintFor } from '../sync/paint.ts';
import { type Run, UsageError, workerOf } from './run.ts';

/** The accounts of the file --filter (a name's start), --after and --limit select, in the file's order, and the next page's --after. */
const selected = ({ flags, config }: Run): { accounts: Run['config']['accounts']; next: string | undefined } => {
  const limit = flags.limit === undefined ? undefined : Number(flags.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new UsageError('--limit is a whole number from 1.');
  const matching = config.accounts.filter((account) => account.name.startsWith(flags.filter ?? ''));
  const from = flags.after === undefined ? 0 : matching.findIndex((account) => account.name === flags.after) + 1;
  if (flags.after !== undefined && from === 0)
    throw new UsageError(`--after ${flags.after}: no such account in the list.`);
  const accounts = matching.slice(from, limit === undefined ? undefined : from + limit);
  const more = limit !== undefined && from + limit < matching.length;
  return { accounts, next: more ? accounts.at(-1)?.name : undefined };
};

/** Prints each account of the file, where its key lives and whether it is stored (--json: one document). */
export const list = async (run: Run): Promise<number> => {
  const { io, flags } = run;
  const { accounts, next } = selected(run);
  const first = run.config.accounts[0]?.name;
  let stored: Map<string, number> | undefined;
  let storeProblem: string | undefined;
  if (accounts.some((account) => !account.apiKeyEnv)) {
    try {
      // Only the names this page may hold: a prefix narrows the store's answer too.
      stored = new Map((await workerOf(io).store.list(flags.filter)).map((entry) => [entry.name, entry.updatedAt]));
    } catch (error) {
      if (!(error instanceof StoreError || error instanceof UsageError)) throw error;
      storeProblem = error.message;
    }
  }
  const rows = accounts.map((account) => {
    const inStore = !account.apiKeyEnv;
    const updatedAt = inStore ? stored?.get(account.name) : undefined;
    return {
      name: account.name,
      first: account.name === first,
      key: inStore ? 'store' : `variable ${account.apiKeyEnv}`,
      // A variable's value is this run's, not the Worker's: say only whether this run has it.
      stored: inStore ? (stored ? updatedAt !== undefined : null) : null,
      ...(inStore && updatedAt !== undefined ? { updatedAt: new Date(updatedAt).toISOString() } : {}),
      ...(!inStore ? { setHere: Boolean(io.env[account.apiKeyEnv as string]?.trim()) } : {}),
      baseUrl: account.baseUrl ?? `from ${account.baseUrlEnv ?? 'PLATFORM_BASE_URL'}`,
    };
  });
  if (flags.json) {
    io.stdout.write(
      `${JSON.stringify({ accounts: rows, ...(next ? { next } : {}), ...(storeProblem ? { storeProblem } : {}) }, null, 2)}\n`,
    );
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
  if (next)
    io.stdout.write(
      paint.dim(
        `More: npm run accounts -- list --after ${next}${flags.limit ? ` --limit ${flags.limit}` : ''}${flags.filter ? ` --filter ${flags.filter}` : ''}\n`,
      ),
    );
  if (storeProblem) io.stderr.write(`${storeProblem}\n`);
  return storeProblem ? 1 : 0;
};
