// The store the order examples call (get_order_status, refund_payment): each client business has
// its own, so its address is the account's setting `storeApiUrl` and its key the account's secret
// STORE_API_KEY. The var STORE_API_URL and the Worker's secret STORE_API_KEY stand in for the first
// account's only (context.account.secret reads a Worker secret for it alone): another account
// never reaches the first one's store, nor sends its key to a store of its own.
import type { CallAccount, Env, Logger } from 'agent-functions';
import { FunctionError } from 'agent-functions';

/**
 * The store of the call's account, or a 503 whose message (`unavailable`, for the model) says what
 * cannot be done; the log says what to set.
 * @example const { url, key } = storeOf(context, 'Order look-up is not set up yet. ...')
 */
export const storeOf = (
  context: { env: Env; log: Logger; account: CallAccount },
  unavailable: string,
): { url: string; key: string } => {
  const url = context.account.settings.storeApiUrl ?? (context.account.first ? context.env.STORE_API_URL : undefined);
  const key = context.account.secret('STORE_API_KEY');
  if (url && key) return { url, key };
  context.log.error('store_not_configured', {
    hint: context.account.first
      ? "set storeApiUrl in the account's settings (or the var STORE_API_URL) and its secret STORE_API_KEY"
      : "set storeApiUrl in this account's settings and its own secret STORE_API_KEY (npm run accounts -- secret): the Worker's serve the first account only",
  });
  throw new FunctionError(503, 'not_configured', unavailable);
};
