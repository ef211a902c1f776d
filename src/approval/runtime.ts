// What approvals need from the Worker that created them: the deferred runtime (functions, platform
// client, opt-out check) and who the team is. withApproval's register sets it when the module is
// evaluated, before any approval's workflow instance runs in that isolate.
import type { CallAccount } from '../account.ts';
import { type DeferredRuntime, servedBy } from '../conversations/runtime.ts';
import type { Env } from '../env.ts';

/** Where the team is reached on the platform: the contact and its channel. */
export interface TeamContact {
  contactId: string;
  channel: string;
}

/** Who the team of `account` is on the platform (its settings say, for a client business), or undefined when none is set (approvals are then unavailable). */
export type TeamContactOf = (
  env: Env,
  account: CallAccount,
) => TeamContact | undefined | Promise<TeamContact | undefined>;

/** The Worker's side of approvals. */
export interface ApprovalRuntime extends DeferredRuntime {
  teamContact: TeamContactOf;
  /** Asks to one account's team per 10 minutes (default TEAM_ASK_LIMIT, src/approval/budget.ts). */
  teamAskLimit?: number | undefined;
}

// Usually one; tests create several Workers in one isolate.
const runtimes: ApprovalRuntime[] = [];

/** Called by withApproval's register, once per Worker created in the isolate. */
export const setApprovalRuntime = (runtime: ApprovalRuntime): void => {
  runtimes.push(runtime);
};

/** The Workers with approvals, the latest first. */
export const approvalRuntimes = (): ApprovalRuntime[] => [...runtimes].reverse();

/** The Workers serving `name` with an approval, the latest first. */
export const approvalRuntimesFor = (name: string): ApprovalRuntime[] =>
  runtimes.filter((runtime) => servedBy(runtime, name)?.definition.approval !== undefined).reverse();
