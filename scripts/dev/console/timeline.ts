// The console's one timeline: every account's side of the local platform (its calls as the agent,
// deliveries, messages) merged with the console's own calls and what the Worker logged.
import type { ActivityAnswer } from '../../platform/routes/activity.ts';
import type { WorkerLine } from '../workerLog.ts';
import { type ConsoleItem, mergeActivity } from './activity.ts';
import type { LoggedCall } from './calls.ts';
import type { ConsoleState } from './state.ts';
import type { ConsoleAccount } from './types.ts';

type Side = { answer?: ActivityAnswer; problem?: string };

/** One account's side, or why it cannot be read (the console's own calls are shown anyway). */
const platformActivity = async (account: ConsoleAccount, named: boolean): Promise<Side> => {
  const whose = named ? ` for account "${account.name}"` : '';
  try {
    const response = await fetch(`${account.url.replace(/\/+$/, '')}/_emulator/activity`, {
      headers: { 'x-api-key': account.apiKey },
      signal: AbortSignal.timeout(5000),
    });
    if (!response.ok) return { problem: `the local platform answered ${response.status}${whose}` };
    return { answer: (await response.json()) as ActivityAnswer };
  } catch (error) {
    return { problem: `the local platform did not answer${whose} (${(error as Error).message})` };
  }
};

/** The request ids of the calls made here: the console's own, and each account's agent's. */
const callsMadeHere = (calls: LoggedCall[], sides: Side[]): Set<string> =>
  new Set([
    ...calls.flatMap((call) => (call.requestId ? [call.requestId] : [])),
    ...sides.flatMap((side) =>
      (side.answer?.activity ?? []).flatMap((record) =>
        record.kind === 'call' && record.requestId ? [record.requestId] : [],
      ),
    ),
  ]);

/**
 * The items of several named accounts: the Worker's line of a call made here joins that call; the
 * lines of calls nobody here made (curl, MCP) are shown once, under the account the Worker acted
 * in, or as refused before an account was known (`account: null`).
 */
export const namedItems = (
  accounts: ConsoleAccount[],
  calls: LoggedCall[],
  sides: Side[],
  workerLines: WorkerLine[],
): ConsoleItem[] => {
  const made = callsMadeHere(calls, sides);
  const items: ConsoleItem[] = accounts.flatMap((account, index) =>
    mergeActivity(
      calls.filter((call) => call.account === account.name),
      sides[index]?.answer,
      workerLines.filter((line) =>
        line.kind === 'invocation'
          ? line.account === account.name && !made.has(line.requestId)
          : line.kind !== 'handling' || line.account === undefined || line.account === account.name,
      ),
    ).map((item) => ({ ...item, account: account.name })),
  );
  const refused = workerLines.filter(
    (line) =>
      line.kind === 'invocation' &&
      !made.has(line.requestId) &&
      !accounts.some((account) => account.name === line.account),
  );
  if (refused.length > 0)
    items.push(...mergeActivity([], undefined, refused).map((item) => ({ ...item, account: null })));
  return items.toSorted((a, b) => b.startedAt - a.startedAt);
};

/** Every account's side and the console's own calls, one timeline (each item named by account when there are several). */
export const timeline = async (state: ConsoleState): Promise<{ items: ConsoleItem[]; problem?: string }> => {
  const { accounts, named } = state;
  const sides = await Promise.all(accounts.map((account) => platformActivity(account, named)));
  const calls = state.log.list();
  const workerLines = state.options.workerLog?.() ?? [];
  const problems = sides.flatMap((side) => (side.problem ? [side.problem] : []));
  const problem = problems.length > 0 ? { problem: problems.join('; ') } : {};
  if (!named) return { items: mergeActivity(calls, sides[0]?.answer, workerLines), ...problem };
  return { items: namedItems(accounts, calls, sides, workerLines), ...problem };
};
