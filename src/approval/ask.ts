// The call side of an approval (docs/functions.md "Approval"): instead of running the handler, the
// request is opened on the account's desk, its workflow instance is created to wait for the
// decision, the team contact is asked through the platform with a link and a reply code, and the
// agent gets the pending answer at once. Nothing runs unapproved: without a conversation to tell,
// a team to ask or the bindings to wait, the call answers that approval is not available now; so
// it does past the customer's follow-up budget or the account's asks (src/approval/budget.ts).
import { type Call, TaskCreated } from '../call.ts';
import { callKeyOf, ledgerNameOf } from '../conversations/callKey.ts';
import { newTaskId, taskInstanceId } from '../conversations/task.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { ACCOUNT_QUERY, DEFAULT_ACCOUNT, sha256Hex, toBase64Url } from '../keys.ts';
import { PlatformError } from '../platform/client/errors.ts';
import type { RegisteredFunction } from '../registry.ts';
import { type SpentFollowUp, spendFollowUp, TEAM_ASK_LIMIT } from './budget.ts';
import type { ApprovalDesk, OpenRequest } from './desk.ts';
import type { ApprovalParams } from './params.ts';
import type { ApprovalRuntime } from './runtime.ts';
import { askText, oneLineAsk } from './text.ts';

/** What the agent gets while a person decides. */
export interface ApprovalPendingAnswer {
  status: 'pending_approval';
  message: string;
  followUp: string;
}

/** What the model reads by default while the request waits: it is with a colleague; nothing is promised. */
export const DEFAULT_WAITING =
  'This needs a colleague to approve it first. Tell the customer their request is with a colleague and that they will get a message here once it is decided; do not promise that it will be approved.';

const FOLLOW_UP_NOTE =
  'The decision reaches the customer as a message in this conversation; do not call this function again for it.';

/** A day, and the bounds of expiresInMs (src/approval/check.ts). */
export const DEFAULT_EXPIRES_MS = 86_400_000;

/** What a call that needs approval answers when nobody can be asked now: nothing was done. */
export const unavailable = (): FunctionError =>
  new FunctionError(
    503,
    'approval_unavailable',
    'This needs a colleague to approve it, and approval is not available right now, so nothing was done. Tell the customer you cannot do it at this moment and that a colleague can help later.',
  );

// 409, a refusal the contract lets a function give (docs/platform-contract.md §4): not in this context.
const notHere = () =>
  new FunctionError(
    409,
    'approval_needs_conversation',
    "This needs a person's approval, which can only be asked for in a customer conversation on the messaging platform. Nothing was done: do not call it again here.",
  );

/** The desk of `account`, or undefined without the binding. */
export const deskOf = (env: Env, account: string): DurableObjectStub<ApprovalDesk> | undefined =>
  (env as { APPROVAL_DESK?: DurableObjectNamespace<ApprovalDesk> }).APPROVAL_DESK?.getByName(account);

/** The workflow binding approvals wait on, or undefined. */
export const workflowOf = (env: Env): Workflow<ApprovalParams> | undefined =>
  (env as { APPROVALS?: Workflow<ApprovalParams> }).APPROVALS;

/**
 * The approval page of `token`: under the Worker's public origin, `?account=` for any account
 * but the default, as function urls are (docs/platform-contract.md §10).
 */
export const approvalLink = (origin: string, token: string, account: string): string =>
  `${origin.replace(/\/+$/, '')}/approvals/${token}${account === DEFAULT_ACCOUNT ? '' : `?${ACCOUNT_QUERY}=${encodeURIComponent(account)}`}`;

const randomToken = (): string => toBase64Url(crypto.getRandomValues(new Uint8Array(16)));

/**
 * Opens `request` on the desk, after spending a follow-up of `contactId` (the customer who hears the
 * outcome, absent for a task): the new request and what it spent, or undefined for a repeat of a
 * pending one. Throws `unavailable()` when the contact had its follow-ups, the account its asks,
 * or the desk or the ledger did not answer; a follow-up spent for nothing is given back.
 */
const openRequest = async (
  inv: Call,
  desk: DurableObjectStub<ApprovalDesk>,
  contactId: string | undefined,
  request: OpenRequest,
): Promise<{ id: string; code: string; spent: SpentFollowUp | undefined } | undefined> => {
  const { log } = inv;
  const errorOf = (error: unknown) => ({ error: error instanceof Error ? error.name : typeof error });
  let spent: SpentFollowUp | undefined;
  try {
    spent = contactId === undefined ? undefined : await spendFollowUp(inv, request.name, contactId);
    if (contactId !== undefined && !spent) {
      // A repeat of a request still waiting is answered as one, whatever the budget says.
      const pending = await desk.pendingFor(request.call);
      if (pending) {
        log.info('approval_repeated', { approval: pending.id });
        return undefined;
      }
      log.warn('approval_follow_up_budget_spent', {
        hint: 'this contact has had its follow-ups for now (docs/security.md): nobody was asked',
      });
      throw unavailable();
    }
    const opened = await desk.open(request);
    if (opened.created) return { id: opened.id, code: opened.code, spent };
    await spent?.release();
    if ('limited' in opened) {
      log.warn('approval_team_asks_spent', {
        hint: `this account asked its team ${request.limit} times in 10 minutes (withApproval's teamAskLimit): nobody was asked`,
      });
      throw unavailable();
    }
    log.info('approval_repeated', { approval: opened.id });
    return undefined;
  } catch (error) {
    if (error instanceof FunctionError) throw error;
    log.error('approval_desk_unavailable', errorOf(error));
    await spent?.release().catch(() => {});
    throw unavailable();
  }
};

/**
 * What asking needs, or unavailable: the desk, the workflow and the call ledger bound, a platform
 * client, and a team contact for the account that may be messaged.
 */
const readyToAsk = async (runtime: ApprovalRuntime, inv: Call) => {
  const { env, log } = inv;
  const account = inv.account.name;
  const desk = deskOf(env, account);
  const workflow = workflowOf(env);
  const ledger = (env as { CALL_LEDGER?: unknown }).CALL_LEDGER;
  const { platform } = inv;
  if (!desk || !workflow || !ledger || !platform) {
    log.error('approval_not_configured', {
      hint: 'bind APPROVAL_DESK, APPROVALS and CALL_LEDGER in wrangler.toml, export ApprovalDesk and ApprovalRequest from worker.ts, and pass platform to createWorker',
    });
    throw unavailable();
  }
  const team = await Promise.resolve(runtime.teamContact(env, inv.account)).catch(() => undefined);
  if (!team) {
    log.error('approval_team_missing', {
      hint: 'the teamContact option of withApproval named no contact for this account',
    });
    throw unavailable();
  }
  if (
    runtime.mayMessage &&
    !(await Promise.resolve(runtime.mayMessage(env, { account, ...team })).catch(() => false))
  ) {
    log.warn('approval_team_opted_out', { hint: 'the team contact is on the opt-out list; nobody can be asked' });
    throw unavailable();
  }
  return { desk, workflow, team, platform };
};

/**
 * Asks the team to approve this call of `fn` with `args` (validated), and answers pending; a
 * repeat of the same call in the conversation while it waits gets the same answer and asks nobody.
 * @example return requestApproval(runtime, fn, inv, args)
 */
export const requestApproval = async (
  runtime: ApprovalRuntime,
  fn: RegisteredFunction,
  inv: Call,
  args: Record<string, unknown>,
): Promise<ApprovalPendingAnswer | TaskCreated> => {
  const approval = fn.definition.approval as NonNullable<RegisteredFunction['definition']['approval']>;
  const { env, log, conversation, task } = inv;
  // Under MCP a client that takes tasks follows the request as a task; nobody else could be told.
  if (!conversation?.channel && !task) {
    log.info('approval_refused', { reason: conversation ? 'no_channel' : 'no_conversation' });
    throw notHere();
  }
  const to = conversation?.channel ? { ...conversation, channel: conversation.channel } : undefined;
  const account = inv.account.name;
  const { desk, workflow, team, platform } = await readyToAsk(runtime, inv);
  const waiting: ApprovalPendingAnswer = {
    status: 'pending_approval',
    message: approval.waiting ?? DEFAULT_WAITING,
    followUp: FOLLOW_UP_NOTE,
  };
  const now = Date.now();
  const taskId = !to && task ? newTaskId(now) : undefined;
  const token = randomToken();
  const expiresAt = now + (approval.expiresInMs ?? DEFAULT_EXPIRES_MS);
  const ask = oneLineAsk(approval.ask(args as never));
  // A repeat is the same call of the same conversation; every task is a request of its own.
  const call = to
    ? await sha256Hex(
        `${await ledgerNameOf(account, to.contactId, to.conversationId ?? '')}\n${await callKeyOf(fn.name, args)}`,
      )
    : `task-${randomToken()}`;
  const opened = await openRequest(inv, desk, to?.contactId, {
    ...(task && taskId ? { id: await taskInstanceId(task.owner, taskId) } : {}),
    call,
    name: fn.name,
    ask,
    expiresAt,
    linkHash: await sha256Hex(token),
    pageToken: randomToken(),
    limit: runtime.teamAskLimit ?? TEAM_ASK_LIMIT,
  });
  if (!opened) {
    if (inv.mark) inv.mark.repeated = true;
    return waiting;
  }
  const { id, code, spent } = opened;
  const withdraw = async (reason: string) => {
    log.warn('approval_withdrawn', { approval: id, reason });
    await Promise.resolve(desk.withdraw(id)).catch(() => {});
    // Nobody was asked, so the customer will not be told: the follow-up is given back.
    await spent?.release().catch(() => {});
    await workflow
      .get(id)
      .then((instance) => instance.terminate())
      .catch(() => {});
    return unavailable();
  };
  const params: ApprovalParams = {
    name: fn.name,
    args: JSON.parse(JSON.stringify(args)) as Record<string, unknown>,
    ...(to ? { conversation: to } : { task: { createdAt: now } }),
    account,
    expiresAt,
    code,
    requestId: inv.requestId,
  };
  // The instance and the ask at once (the ask is due within a second): a decision is kept on the
  // desk whenever it comes, and the instance reads it there, so neither waits for the other.
  const origin = env.FUNCTIONS_BASE_URL ?? (inv.request ? new URL(inv.request.url).origin : '');
  const text = askText(ask, approvalLink(origin, token, account), code, expiresAt);
  const [created, asked] = await Promise.allSettled([
    workflow.create({ id, params }),
    platform(AbortSignal.timeout(10_000), log).messages.send({ ...team, text }),
  ]);
  if (created.status === 'rejected') {
    const error = created.reason as unknown;
    log.error('approval_wait_unavailable', { error: error instanceof Error ? error.name : typeof error });
    throw await withdraw('workflow');
  }
  if (asked.status === 'rejected') {
    const error = asked.reason as unknown;
    if (error instanceof PlatformError && !error.ambiguous) {
      log.warn('approval_team_unreachable', { status: error.status, code: error.code });
      throw await withdraw('team_unreachable');
    }
    // It may have reached the team: the request waits, and expires honestly if nobody saw it.
    log.error('approval_ask_ambiguous', {
      approval: id,
      error: error instanceof Error ? error.name : typeof error,
      hint: 'the team may not have the request; it expires if nobody decides',
    });
  }
  // Never the reply code: whoever reads the logs could decide with it.
  log.info(taskId ? 'approval_asked_as_task' : 'approval_asked', { approval: id, expiresAt });
  return taskId ? new TaskCreated(taskId, now) : waiting;
};
