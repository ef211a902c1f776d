// `npm run accounts -- add <name>`: onboarding a client in one command (docs/sync-and-accounts.md
// "Onboarding a client"): check its key with its platform, store it, record the account, sync that
// account alone, and say what its agent can now call.
import type { KeyPlacement } from 'agent-functions/platform';
import type { SyncAccount } from '../project/accounts.ts';
import { type AccountApi, accountApi } from '../sync/accountApi.ts';
import { isOwnedUrl } from '../sync/plan.ts';
import type { SyncIo } from '../sync/run.ts';
import { addAccountToFile } from './file.ts';
import { type Run, readKey, syncOne, UsageError, verifyKey, workerOf } from './run.ts';

/** Onboards account `name`: key checked and stored, account recorded, synced alone. */
export const add = async (run: Run, name: string): Promise<number> => {
  const { io, flags, config, file, source } = run;
  if (config.accounts.some((account) => account.name === name)) {
    throw new UsageError(
      `${source} already has account "${name}": npm run accounts -- rotate ${name} stores a new key.`,
    );
  }
  const { origin, store } = workerOf(io);
  const baseUrl = flags['base-url'] ?? io.env.PLATFORM_BASE_URL?.trim();
  if (!baseUrl) throw new UsageError(`Where is account "${name}"? Give --base-url URL (or set PLATFORM_BASE_URL).`);
  const keyPlacement = flags['key-placement'] as KeyPlacement | undefined;
  const apiKey = await readKey(io, flags['key-env'], name);
  await verifyKey(name, baseUrl, apiKey, keyPlacement);
  await store.put(name, {
    apiKey,
    ...(flags['base-url'] ? { baseUrl: flags['base-url'] } : {}),
    ...(keyPlacement ? { keyPlacement } : {}),
  });
  addAccountToFile(
    file,
    { name, ...(flags['base-url'] ? { baseUrl: flags['base-url'] } : {}), ...(keyPlacement ? { keyPlacement } : {}) },
    source,
  );
  io.stdout.write(`Stored the key of account "${name}" in the Worker's account store and added it to ${source}.\n`);
  // This run holds the key: sync with it directly (an in-process variable), not through the Worker's relay.
  const heldKey = 'AGENT_FUNCTIONS_ACCOUNTS_ADD_KEY';
  let api: AccountApi | undefined;
  const createApi: SyncIo['createApi'] = (account: SyncAccount, options) => {
    api = io.createApi ? io.createApi(account, options) : accountApi({ ...account, ...options });
    return api;
  };
  const direct = { name, apiKeyEnv: heldKey, baseUrl, ...(keyPlacement ? { keyPlacement } : {}) };
  const synced = await syncOne(run, name, [], {
    createApi,
    env: { ...io.env, [heldKey]: apiKey },
    config: { accounts: [...config.accounts, direct] },
  });
  if (synced.exitCode !== 0 && synced.exitCode !== 2) {
    io.stderr.write(`The sync of "${name}" did not finish: npm run sync -- --account ${name} finishes it.\n`);
    return synced.exitCode;
  }
  const callable = api
    ? (await api.api.list())
        .filter((fn) => isOwnedUrl(fn.url, origin))
        .map((fn) => fn.name)
        .sort()
    : [];
  io.stdout.write(
    `The agent of "${name}" can now call ${callable.length} function(s)${callable.length ? `: ${callable.join(', ')}` : ''}.\n`,
  );
  return 0;
};
