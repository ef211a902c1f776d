// The store the order examples call (get_order_status, refund_payment): each client business has
// its own, so its address is the account's setting `storeApiUrl` (else the var STORE_API_URL) and
// its key the account's secret STORE_API_KEY (else the Worker's secret of that name).
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
  const url = context.account.settings.storeApiUrl ?? context.env.STORE_API_URL;
  const key = context.account.secret('STORE_API_KEY');
  if (url && key) return { url, key };
  context.log.error('store_not_configured', {
    hint: "set storeApiUrl in the account's settings (or the var STORE_API_URL) and its secret STORE_API_KEY",
  });
  throw new FunctionError(503, 'not_configured', unavailable);
};
