// The console's view of approvals waiting for a person (src/approval/): the Worker's
// development-only desk of each account, listed together or sent a decision.
import type { ConsoleState } from './state.ts';

type Answer = { status: number; body: unknown };

/**
 * The Worker's desk of one account: `/approvals?account=<name>` (the desk reads "default"'s
 * without it, whatever the first account is named), or `/approvals` with no accounts named.
 */
const deskOf = (origin: string, account: string | undefined): URL => {
  const desk = new URL('/approvals', origin);
  if (account) desk.searchParams.set('account', account);
  return desk;
};

/** Lists a desk (`decision` undefined) or sends it a decision; a Worker without approvals (404) has none waiting. */
const askDesk = async (desk: URL, decision: unknown): Promise<Answer> => {
  const response = await fetch(desk, {
    method: decision === undefined ? 'GET' : 'POST',
    ...(decision === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(decision) }),
    signal: AbortSignal.timeout(10_000),
  });
  // A Worker without approvals answers 404: nothing waits.
  if (response.status === 404) return { status: 200, body: { approvals: [] } };
  return { status: response.status, body: await response.json() };
};

/** Every account's pending approvals, each named by its account when accounts are named. */
const listApprovals = async (url: string, names: Array<string | undefined>): Promise<Answer> => {
  const lists = await Promise.all(
    names.map(async (account) => {
      const { status, body } = await askDesk(deskOf(url, account), undefined);
      const approvals = status === 200 ? ((body as { approvals?: unknown[] }).approvals ?? []) : [];
      return approvals.map((approval) => ({ ...(approval as object), ...(account ? { account } : {}) }));
    }),
  );
  return { status: 200, body: { approvals: lists.flat() } };
};

/**
 * The Worker's pending approvals of every account, each named by its account, or a decision sent
 * to its account's desk; the Worker's origin is that of its function urls. The Worker is asked
 * only once its log showed one asked: a Worker without approvals is never sent a request it did
 * not expect.
 */
export const workerApprovals = async (state: ConsoleState, input: unknown): Promise<Answer> => {
  const { options } = state;
  state.approvalsSeen ||= (options.workerLog?.() ?? []).some(
    (line) => line.kind === 'deferred' && line.event === 'approval_asked',
  );
  if (!state.approvalsSeen) return { status: 200, body: { approvals: [] } };
  const listing = await options.functions();
  const first = (Array.isArray(listing) ? listing : listing.functions)[0];
  const url = first && (await options.urlOf(first.name));
  if (!url) return { status: 200, body: { approvals: [] } };
  const names: Array<string | undefined> = state.named ? state.accounts.map((account) => account.name) : [undefined];
  try {
    if (input === undefined) return await listApprovals(url, names);
    const { account, ...decision } = (input ?? {}) as { account?: unknown };
    const chosen = typeof account === 'string' && names.includes(account) ? account : names[0];
    return await askDesk(deskOf(url, chosen), decision);
  } catch (error) {
    return { status: 502, body: { error: `The Worker did not answer (${(error as Error).message}).` } };
  }
};
