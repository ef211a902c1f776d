// The shape agencies deploy (docs/sync-and-accounts.md "Hundreds of clients"): the clients' keys in
// the account store of a running Worker, which sync reaches through its relay. The Worker is the
// project's own (worker.ts, wrangler.toml) under wrangler's dev server, in development mode as
// `npm run dev` runs it: the bench's platform answers over http on this machine, an address the
// store accepts only there (docs/security.md "Stored accounts' addresses"); FUNCTIONS_SECRET is set,
// so every request is keyed as deployed. The keys are stored as `npm run accounts -- import` stores
// them (PUT /accounts/<name>, a few at once).
import { join } from 'node:path';
import { storeClient } from '../../scripts/project/accountStore.ts';
import { pool } from '../../scripts/sync/pool.ts';

/** Where the clients' keys are in a sync run. */
export type KeysIn = 'variables' | 'store';

const ROOT = join(import.meta.dirname, '../..');
const ACCOUNTS_SECRET = 'bench-accounts-store-secret-5f2e81c9';

/**
 * The project's Worker running locally with the account store, FUNCTIONS_SECRET `secret`.
 * @example const worker = await storedKeysWorker(secret); ...; await worker.close()
 */
export const storedKeysWorker = async (secret: string): Promise<{ origin: string; close: () => Promise<void> }> => {
  process.env.CLOUDFLARE_CF_FETCH_ENABLED ??= 'false';
  const { createTestHarness } = await import('wrangler');
  const server = createTestHarness({
    root: ROOT,
    workers: [
      {
        configPath: './wrangler.toml',
        vars: { AGENT_FUNCTIONS_MODE: 'development' },
        secrets: { FUNCTIONS_SECRET: secret, ACCOUNTS_SECRET },
      },
    ],
  });
  const { url } = await server.listen();
  return { origin: url.origin, close: () => server.close() };
};

/** Stores each account's key and address in the Worker's store, 16 at once. */
export const storeKeys = async (
  origin: string,
  secret: string,
  accounts: readonly { name: string; apiKey: string; baseUrl: string }[],
): Promise<void> => {
  const store = storeClient(origin, secret);
  await pool(accounts, 16, async ({ name, apiKey, baseUrl }) => {
    await store.put(name, { apiKey, baseUrl });
    return undefined;
  });
};
