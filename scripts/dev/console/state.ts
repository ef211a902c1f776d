// What one running console keeps between requests: its options, the accounts it plays, its log
// of calls, which conversation its calls come from, and whether the Worker ever asked an approval.
import { createCallLog } from './calls.ts';
import type { ConsoleAccount, ConsoleOptions } from './types.ts';

export interface ConsoleState {
  options: ConsoleOptions;
  accounts: ConsoleAccount[];
  /** Items are named by account (several accounts, or an accounts file). */
  named: boolean;
  log: ReturnType<typeof createCallLog>;
  /** How many conversations the page has started (1: the one dev gives). */
  conversations: number;
  /** The Worker's log showed an approval asked: only then is its desk asked. */
  approvalsSeen: boolean;
}

/** A fresh console's state from its options. */
export const consoleState = (options: ConsoleOptions): ConsoleState => {
  const accounts: ConsoleAccount[] = options.accounts ?? (options.platform ? [{ name: '', ...options.platform }] : []);
  return {
    options,
    accounts,
    named: accounts.length > 1 || Boolean(options.accounts),
    log: createCallLog(),
    conversations: 1,
    approvalsSeen: false,
  };
};

/**
 * The console's conversation: the one dev gives (the account's), then a new one each time the
 * page starts one (the same customer, a new conversation id), so answers kept for repeats
 * (docs/functions.md, "Calls that repeat") belong to the conversation before and the next call runs.
 */
export const conversationNow = async (state: ConsoleState, account?: string) => {
  const first = await state.options.conversation?.(account).catch(() => undefined);
  if (!first || state.conversations === 1) return first;
  return { ...first, conversationId: `${first.conversationId}-${state.conversations}` };
};

/** Calls function `name` through the Worker as `account`'s agent, exactly at its url, and logs the answer. */
export const callFunction = async (state: ConsoleState, name: string, args: unknown, account: string | undefined) => {
  const { accounts, named, log, options } = state;
  if (account !== undefined && !accounts.some((candidate) => candidate.name === account)) {
    const known = accounts.map((candidate) => candidate.name).join(', ');
    return { status: 400, body: { error: `No account "${account}" on the local platform: ${known || 'none'}.` } };
  }
  const url = await options.urlOf(name, account);
  if (!url) return { status: 404, body: { error: `No function named "${name}" is served.` } };
  const conversation = await conversationNow(state, account);
  const started = performance.now();
  const startedAt = Date.now();
  let status = 0;
  let requestId: string | undefined;
  let body: string;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...((args as object | undefined) ?? {}), ...conversation }),
      signal: AbortSignal.timeout(60_000),
    });
    status = response.status;
    requestId = response.headers.get('x-request-id') ?? undefined;
    body = await response.text();
  } catch (error) {
    body = `No answer from the Worker: ${(error as Error).message}`;
  }
  const entry = log.add({
    ...(requestId ? { requestId } : {}),
    name,
    arguments: args,
    status,
    durationMs: Math.round(performance.now() - started),
    startedAt,
    endedAt: Date.now(),
    body,
    ...(conversation ? { conversation } : {}),
    ...(named ? { account: account ?? accounts[0]?.name ?? '' } : {}),
  });
  return { status: 200, body: entry };
};
