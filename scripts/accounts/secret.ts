// `npm run accounts -- secret <name> <SECRET_NAME>`: one secret setting of a stored-key account (a
// client's store API key), sealed with its key in the account store; a handler reads it with
// context.account.secret(SECRET_NAME). The value is read as a key is, never shown.
import { type Run, readKey, UsageError, workerOf } from './run.ts';

const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Stores (or with --remove deletes) the secret `secretName` of the stored-key account `name`. */
export const secret = async (run: Run, name: string, secretName: string): Promise<number> => {
  const { io, flags, config, source } = run;
  if (!SECRET_NAME.test(secretName)) {
    throw new UsageError(`"${secretName}" is not a secret name: a variable name such as SHOP_TOKEN.`);
  }
  const account = config.accounts.find((a) => a.name === name);
  if (!account) throw new UsageError(`${source} has no account "${name}": npm run accounts -- add ${name}.`);
  const { store } = workerOf(io);
  if (!(await store.get(name))) {
    throw new UsageError(
      `No key is stored for account "${name}", so its secrets cannot be either: npm run accounts -- rotate ${name} stores one.`,
    );
  }
  const value = flags.remove
    ? null
    : await readKey(io, flags['value-env'], name, {
        what: `the secret ${secretName}`,
        flag: '--value-env',
        command: `secret`,
      });
  const summary = await store.put(name, { secrets: { [secretName]: value } });
  io.stdout.write(
    `${value === null ? 'Removed' : 'Stored'} the secret ${secretName} of account "${name}"; it now has ${summary.secretNames.length ? summary.secretNames.join(', ') : 'none'}. Every instance of the Worker sees it within a minute.\n`,
  );
  return 0;
};
