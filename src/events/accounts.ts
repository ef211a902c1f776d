// Whose delivery a request is: the first account's webhook delivers to EVENTS_PATH, every other's
// to EVENTS_PATH/<its name> (eventsPathOf), and that account is resolved as a call's is, by the
// Worker's one account resolver (src/accounts/): the accounts file's entry or the account store's
// record. An account stored while the Worker runs (`npm run accounts -- add`) has its events at
// once, with no redeploy, and nothing here grows with the number of accounts.
import type { AccessibleAccount, AccessibleResolver } from '../accounts/access.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { ACCOUNT_NAME, EVENTS_PATH, eventsPathOf } from '../platform/protocol/contract.ts';

/** The route of every account's events endpoint: EVENTS_PATH and each account's path under it. */
export const EVENTS_ROUTE = `${EVENTS_PATH}/*`;

const notServed = (): FunctionError =>
  new FunctionError(
    404,
    'not_found',
    'Nothing is served here: no account of this Worker has its webhook at this path.',
  );

/**
 * The account a delivery to `path` (without trailing slashes) is for, resolved by `accounts`, and
 * its path; a 404 for a path no account of the Worker delivers to (unknown accounts included).
 * @example const { resolved } = await eventsAccountOf(accounts, 'agency', env, '/events/client-acme', log)
 */
export const eventsAccountOf = async (
  accounts: AccessibleResolver,
  first: string | undefined,
  env: Env,
  path: string,
  log: Logger,
): Promise<{ resolved: AccessibleAccount; path: string }> => {
  const named = path === EVENTS_PATH ? undefined : path.slice(EVENTS_PATH.length + 1);
  // The first account's webhook is at EVENTS_PATH only; a name is one path segment.
  if (named !== undefined && (named === first || !ACCOUNT_NAME.test(named))) throw notServed();
  try {
    const resolved = await accounts(env, named, log);
    return { resolved, path: eventsPathOf(resolved.account.name, named === undefined) };
  } catch (error) {
    // An account the Worker does not serve: as if it had no path, asking its platform nothing.
    if (error instanceof FunctionError && error.status === 401) throw notServed();
    throw error;
  }
};
