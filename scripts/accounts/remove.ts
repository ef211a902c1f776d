// `npm run accounts -- remove <name>`: deletes that account's registrations on its platform (sync
// --prune with none of its functions wanted, through the Worker's relay for a stored key), then its
// stored key and its entry in the accounts file; the first account, whose urls are plain, stays.
import type { AccountsConfig } from '../project/accounts.ts';
import { removeAccountFromFile } from './file.ts';
import { confirm, type Run, syncOne, UsageError, workerOf } from './run.ts';

/** Removes account `name`: its registrations, its stored key, its entry in the file. */
export const remove = async (run: Run, name: string): Promise<number> => {
  const { io, flags, config, file, source } = run;
  const index = config.accounts.findIndex((account) => account.name === name);
  const account = config.accounts[index];
  if (!account) throw new UsageError(`${source} has no account "${name}" (npm run accounts -- list).`);
  if (index === 0) {
    throw new UsageError(
      `"${name}" is the first account of ${source}: its urls have the plain form, and removing it would change every other account's. Move another account first, or remove the others.`,
    );
  }
  if (!flags.yes) {
    if (!io.stdin.isTTY)
      throw new UsageError(`Removing "${name}" deletes its registrations on its platform: add --yes to confirm.`);
    const yes = await confirm(
      io,
      `Remove account "${name}": delete its registrations on its platform, ${account.apiKeyEnv ? '' : 'its stored key, '}and its entry in ${source}?`,
    );
    if (!yes) {
      io.stdout.write('Nothing changed.\n');
      return 1;
    }
  }
  const { store } = workerOf(io);
  // Only this account, and none of its functions wanted: --prune deletes every one this project registered there.
  const pruneConfig: AccountsConfig = {
    accounts: config.accounts.map((a) => (a.name === name ? { ...a, functions: [] } : a)),
  };
  const pruned = await syncOne(run, name, ['--prune'], {
    config: pruneConfig,
    eventTypes: [],
    fetchWorker: false,
    ...(io.createApi ? { createApi: io.createApi } : {}),
  });
  if (pruned.exitCode !== 0 && pruned.exitCode !== 2) {
    io.stderr.write(
      `Could not delete the registrations of "${name}": its key and its entry in ${source} are kept, so npm run accounts -- remove ${name} can finish.\n`,
    );
    return pruned.exitCode;
  }
  if (!account.apiKeyEnv) await store.remove(name);
  removeAccountFromFile(file, name, source);
  io.stdout.write(
    `Removed account "${name}": its registrations, ${account.apiKeyEnv ? `(its key stays in ${account.apiKeyEnv}) ` : 'its stored key '}and its entry in ${source}.\n`,
  );
  return 0;
};
