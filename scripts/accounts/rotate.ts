// `npm run accounts -- rotate <name>`: checks and stores a new key for one stored-key account; the
// others are untouched, and every instance of the Worker uses it within a minute.
import { type Run, readKey, UsageError, verifyKey, workerOf } from './run.ts';

/** Checks and stores a new key for the stored-key account `name`. */
export const rotate = async (run: Run, name: string): Promise<number> => {
  const { io, flags, config, source } = run;
  const account = config.accounts.find((a) => a.name === name);
  if (!account) throw new UsageError(`${source} has no account "${name}": npm run accounts -- add ${name}.`);
  if (account.apiKeyEnv) {
    throw new UsageError(
      `Account "${name}" reads its key from the variable ${account.apiKeyEnv}: put the new key there (npx wrangler secret put ${account.apiKeyEnv}, and your CI's secret), or remove apiKeyEnv from ${source} to keep it in the account store.`,
    );
  }
  const { store } = workerOf(io);
  const baseUrl = account.baseUrl ?? io.env[account.baseUrlEnv ?? 'PLATFORM_BASE_URL']?.trim();
  const apiKey = await readKey(io, flags['key-env'], name);
  if (baseUrl) await verifyKey(name, baseUrl, apiKey, account.keyPlacement);
  // The key with the file's address, if it names one: the store takes a new address only with the key.
  const summary = await store.put(name, { apiKey, ...(account.baseUrl ? { baseUrl: account.baseUrl } : {}) });
  io.stdout.write(
    `Stored a new key for account "${name}" (${new Date(summary.updatedAt).toISOString()}); every instance of the Worker uses it within a minute. Revoke the old key on the platform.\n`,
  );
  return 0;
};
