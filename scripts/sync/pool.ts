// A tiny bounded pool: the writes of one account and the accounts of one run both go through it.

/**
 * Runs `work` on every item, at most `limit` at once, in order of the items; a `work` answering
 * 'stop' lets the ones in flight end and starts no more.
 * @example await pool(accounts, 8, async (account) => { await syncOne(account); })
 */
export const pool = async <T>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<undefined | 'stop'>,
): Promise<void> => {
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      const index = next++;
      if ((await work(items[index] as T, index)) === 'stop') stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
};
