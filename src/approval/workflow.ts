// An approval's wait and work, durably (docs/decisions/0010-approval-on-workflows.md): one Workflow
// instance per request waits for the decision event up to the request's expiry, reads the decision
// from the account's desk (src/approval/desk.ts, the one place it is made), runs the handler at
// most once when approved (claimed in the call ledger before it runs, so a replayed step never runs
// it again), and sends the customer one message through the deferred follow-up path: the result,
// the denial or the expiry. On expiry the team is told too. The instance keeps who decided and when.
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import type { ResolvedAccount } from '../accounts/resolve.ts';
import type { CallSetup } from '../call.ts';
import type { FollowUpOutcome } from '../conversations/followUp.ts';
import { sendFollowUp } from '../conversations/followUp.ts';
import { ATTEMPT_WINDOW_MS } from '../conversations/followUpMark.ts';
import type { CallLedger } from '../conversations/ledger.ts';
import { actingIn } from '../conversations/runtime.ts';
import type { TaskOutcome } from '../conversations/task.ts';
import { failureOf, followUpOf, recordWork, type WorkEnd, type WorkOf } from '../conversations/workRecord.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { createLogger, type Logger } from '../log.ts';
import type { RegisteredFunction } from '../registry.ts';
import { deskOf } from './ask.ts';
import type { ApprovalState } from './desk.ts';
import { type ApprovalParams, DECISION_EVENT } from './params.ts';
import { type ApprovalRuntime, approvalRuntimesFor } from './runtime.ts';
import { expiredText } from './text.ts';

/** The customer's message when the approved work was refused or failed. */
export const APPROVED_BUT_FAILED =
  'Your request was approved, but it could not be carried out just now. A colleague will be in touch about it.';
/** The customer's message when the approved work may or may not have happened: never run again. */
export const APPROVED_OUTCOME_UNKNOWN =
  'Your request was approved. A colleague will confirm to you once it has gone through.';

/** What an instance keeps: the decision, who made it and when, what the work did, and the customer's message. */
export interface ApprovalOutcome {
  decision: ApprovalState | 'gone';
  decidedBy: string | null;
  decidedAt: number | null;
  work: 'done' | 'refused' | 'failed' | 'unknown' | 'not_run';
  message: FollowUpOutcome | 'failed' | 'none';
  /** An MCP task's outcome, as tasks/get reads it (src/mcp/tasks.ts). */
  task?: { outcome: TaskOutcome; finishedAt: number };
}

/** One run of the work as the ledger keeps it: what it did, how it ended (its record's) and what the customer is told. */
type WorkDone = { work: 'done' | 'refused' | 'unknown'; end: WorkEnd; text?: string; kept?: string };
/** What the ledger keeps of the one run: its result, its refusal, or that it may have happened. */
type Kept =
  | { work: 'done'; value: unknown }
  | { work: 'refused'; status?: number; code?: string; message?: string }
  | { work: 'unknown' };

const LEASE_MARGIN_MS = 30_000;
const RUN_KEY = 'run';

/** Whether a failed run may still have had its effect (as src/conversations/dedupe.ts reads it). */
const mayHaveApplied = (error: unknown): boolean =>
  !(error instanceof FunctionError) || error.status === 504 || error.mayHaveApplied;

/** How a run the ledger kept ends its record: done, its refusal, or unknown (it may have happened). */
const endOf = (kept: Kept): WorkEnd =>
  kept.work === 'done'
    ? { status: 200 }
    : kept.work === 'refused'
      ? { status: kept.status ?? 422, code: kept.code ?? 'refused' }
      : { status: 500, code: 'outcome_unknown' };

const textOf = <A>(message: string | ((args: A) => string), args: A): string =>
  typeof message === 'function' ? message(args) : message;

/** An approval option of a function definition. */
type ApprovalOption = NonNullable<RegisteredFunction['definition']['approval']>;

/** What the customer is told of the one run: the function's own message of its result, else that it failed or is unconfirmed. */
const toldOf = (kept: Kept, fn: RegisteredFunction, args: unknown): string =>
  kept.work === 'done'
    ? (fn.definition.approval as ApprovalOption).message(kept.value as never, args as never)
    : kept.work === 'refused'
      ? APPROVED_BUT_FAILED
      : APPROVED_OUTCOME_UNKNOWN;

/** An MCP task's outcome of the approved run, from what the ledger kept of it (undefined: the run failed). */
const taskOutcomeOfRun = (keptJson: string | undefined): TaskOutcome => {
  const kept = keptJson ? (JSON.parse(keptJson) as Kept) : undefined;
  return kept?.work === 'done'
    ? { ok: true, value: kept.value ?? null }
    : kept?.work === 'refused'
      ? {
          ok: false,
          status: kept.status ?? 422,
          code: kept.code ?? 'refused',
          message: kept.message ?? APPROVED_BUT_FAILED,
        }
      : { ok: false, failed: true };
};

/** An MCP task's outcome when nothing ran: denied, or expired with nobody deciding. */
const taskOutcomeOfClosed = (denied: boolean): TaskOutcome => ({
  ok: false,
  status: 409,
  code: denied ? 'approval_denied' : 'approval_expired',
  message: denied
    ? 'A colleague did not approve this, so nothing was done. Tell the customer it was not approved.'
    : 'Nobody approved this in time, so nothing was done. Tell the customer, and that they may ask again.',
});

/** The workflow wrangler.toml binds as APPROVALS (class_name "ApprovalRequest"); export it from worker.ts. */
export class ApprovalRequest extends WorkflowEntrypoint<Env, ApprovalParams> {
  override async run(event: WorkflowEvent<ApprovalParams>, step: WorkflowStep): Promise<ApprovalOutcome> {
    const { name, args, conversation, account, expiresAt, requestId } = event.payload;
    const id = event.instanceId;
    const log = createLogger({ function: name, requestId, approval: id });
    // The account the call came through (its platform client, settings and team), and the Worker that acts in it.
    const found = await actingIn(approvalRuntimesFor(name), this.env, account, log);
    const runtime = found?.runtime;
    const from = found?.account;
    const fn = runtime?.registry.get(name);
    const approval = fn?.definition.approval;
    const desk = deskOf(this.env, account);
    // The records of its decision and of the approved run (src/record.ts), each once.
    const of: WorkOf = { account, function: name, requestId };
    const record = (
      kind: 'approval_decision' | 'approval_run',
      started: number,
      end: WorkEnd,
      message: ApprovalOutcome['message'] = 'none',
    ) =>
      recordWork(
        step,
        `record ${kind}`,
        log,
        { kind, of, started, end, followUp: followUpOf(message) },
        this.env,
        this.ctx,
      );
    if (!runtime || !fn || !approval || !desk || !from) {
      log.error('approval_gone', { hint: 'the function, its approval option or its account is no longer deployed' });
      await record('approval_decision', event.timestamp.getTime(), { status: 500, code: 'approval_gone' });
      return { decision: 'gone', decidedBy: null, decidedAt: null, work: 'not_run', message: 'none' };
    }
    // The wait ends with the event or at the expiry; either way the desk says what was decided.
    await step
      .waitForEvent(DECISION_EVENT, { type: DECISION_EVENT, timeout: Math.max(1_000, expiresAt - Date.now()) })
      .catch(() => undefined);
    const decided = await step.do('settle', async () => {
      const view = await desk.finalState(id);
      return { state: view?.state ?? 'withdrawn', by: view?.decidedBy ?? null, at: view?.decidedAt ?? null };
    });
    log.info('approval_settled', { decision: decided.state, decidedBy: decided.by, decidedAt: decided.at });
    // A withdrawn request was never decided: the call that asked answered that approval was unavailable.
    if (decided.state !== 'withdrawn') {
      await record('approval_decision', event.timestamp.getTime(), { status: 200, code: decided.state });
    }
    const outcome: ApprovalOutcome = {
      decision: decided.state,
      decidedBy: decided.by,
      decidedAt: decided.at,
      work: 'not_run',
      message: 'none',
    };
    const task = event.payload.task;
    const finishTask = (taskOutcome: TaskOutcome): ApprovalOutcome => ({
      ...outcome,
      task: { outcome: taskOutcome, finishedAt: Date.now() },
    });
    let text: string;
    // The approved run's record, once the customer was told (a task's: once it ran).
    let run: { started: number; end: WorkEnd } | undefined;
    if (decided.state === 'approved') {
      const started = Date.now();
      const done = await this.runApproved(step, fn, runtime, from, event.payload, id, log);
      outcome.work = 'failed' in done ? 'failed' : done.work;
      text = done.text ?? APPROVED_BUT_FAILED;
      run = { started, end: done.end };
      if (task) {
        await record('approval_run', started, done.end);
        return finishTask(taskOutcomeOfRun(done.kept));
      }
    } else if (task && (decided.state === 'denied' || decided.state === 'expired')) {
      return finishTask(taskOutcomeOfClosed(decided.state === 'denied'));
    } else if (decided.state === 'denied') {
      text = textOf(approval.denied, args as never);
    } else if (decided.state === 'expired') {
      text = textOf(approval.expired, args as never);
      await this.tellTeam(step, runtime, from, approval, event.payload, id, log);
    } else {
      // Withdrawn: the call itself answered that approval was unavailable; nobody waits for a message.
      return outcome;
    }
    if (conversation) outcome.message = await this.messageCustomer(step, runtime, from, conversation, id, log, text);
    if (run) await record('approval_run', run.started, run.end, outcome.message);
    return outcome;
  }

  /**
   * The approved run as a durable step (retried, bounded by the function's time limit): what it did
   * and what the customer is told, or a failure once every retry failed.
   */
  private runApproved(
    step: WorkflowStep,
    fn: RegisteredFunction,
    runtime: ApprovalRuntime,
    from: ResolvedAccount,
    params: ApprovalParams,
    id: string,
    log: Logger,
  ): Promise<WorkDone | (WorkDone & { failed: true })> {
    let failure: WorkEnd = { status: 500, code: 'function_failed' };
    return step
      .do(
        'work',
        { retries: { limit: 3, delay: '5 seconds', backoff: 'exponential' }, timeout: fn.manifest.timeoutMs + 5_000 },
        async (): Promise<WorkDone> => {
          const kept = await this.runOnce(fn, runtime, from, params, id, log).catch((error: unknown) => {
            failure = failureOf(error);
            throw error;
          });
          const end = endOf(kept);
          // A task keeps the result for its client; a customer is told in words (computed again on a replay).
          return params.task
            ? { work: kept.work, end, kept: JSON.stringify(kept) }
            : { work: kept.work, end, text: toldOf(kept, fn, params.args) };
        },
      )
      .catch((error: unknown): WorkDone & { failed: true } => {
        log.error('approval_work_failed', { error: error instanceof Error ? error.name : typeof error });
        return { work: 'unknown', end: failure, text: APPROVED_BUT_FAILED, failed: true };
      });
  }

  /** On expiry, the account's team is told which request nobody decided (a durable step; a failure is logged). */
  private async tellTeam(
    step: WorkflowStep,
    runtime: ApprovalRuntime,
    from: ResolvedAccount,
    approval: ApprovalOption,
    params: ApprovalParams,
    id: string,
    log: Logger,
  ): Promise<void> {
    await step
      .do('tell team', { retries: { limit: 3, delay: '5 seconds', backoff: 'exponential' } }, async () => {
        const team = await runtime.teamContact(this.env, from.account);
        if (!team) return 'none';
        const text = expiredText(approval.ask(params.args as never), params.code);
        return sendFollowUp(runtime, this.env, log, `${id}-team`, from, team, text);
      })
      .catch((error: unknown) => {
        log.error('approval_expiry_not_told', { error: error instanceof Error ? error.name : typeof error });
      });
  }

  /** The customer's one message of the outcome, as a durable step; 'failed' once every retry failed. */
  private async messageCustomer(
    step: WorkflowStep,
    runtime: ApprovalRuntime,
    from: ResolvedAccount,
    conversation: NonNullable<ApprovalParams['conversation']>,
    id: string,
    log: Logger,
    text: string,
  ): Promise<ApprovalOutcome['message']> {
    try {
      return await step.do('message', { retries: { limit: 5, delay: '5 seconds', backoff: 'exponential' } }, () =>
        sendFollowUp(runtime, this.env, log, id, from, conversation, text),
      );
    } catch (error) {
      log.error('follow_up_failed', { error: error instanceof Error ? error.name : typeof error });
      return 'failed';
    }
  }

  /**
   * Runs the approved handler at most once: the run is claimed in the ledger `approval-<id>` before
   * it starts; a replay finds the claim and never runs it again (its outcome, or unknown after a crash).
   */
  private async runOnce(
    fn: RegisteredFunction,
    runtime: ApprovalRuntime,
    from: ResolvedAccount,
    params: ApprovalParams,
    id: string,
    log: Logger,
  ): Promise<Kept> {
    const namespace = (this.env as { CALL_LEDGER?: DurableObjectNamespace<CallLedger> }).CALL_LEDGER;
    if (!namespace) throw new Error('CALL_LEDGER is not bound: an approved write cannot run at most once');
    const ledger = namespace.getByName(`approval-${id}`);
    const claim = await ledger.claim(RUN_KEY, fn.manifest.timeoutMs + LEASE_MARGIN_MS, 0, ATTEMPT_WINDOW_MS);
    // A replay: what the one run kept, never a second run.
    if (claim.verdict === 'done') return JSON.parse(claim.answer) as Kept;
    if (claim.verdict !== 'run') {
      log.warn('approval_work_unknown', { hint: 'an earlier attempt may have done it; it is not run again' });
      return { work: 'unknown' };
    }
    let kept: Kept;
    try {
      const setup = this.setup(from, params.requestId, log);
      const value = await runtime.execute(fn, setup, () => ({
        args: structuredClone(params.args),
        conversation: params.conversation,
      }));
      kept = { work: 'done', value: value ?? null };
      log.info('approval_work_done');
    } catch (error) {
      if (error instanceof FunctionError && error.status < 500 && !error.mayHaveApplied) {
        log.warn('approval_work_refused', { code: error.code });
        kept = { work: 'refused', status: error.status, code: error.code, message: error.message };
      } else if (mayHaveApplied(error)) {
        log.error('approval_work_unknown', { error: error instanceof Error ? error.name : typeof error });
        kept = { work: 'unknown' };
      } else {
        // A clear failure that changed nothing: the key is free again and the step retries.
        await Promise.resolve(ledger.release(RUN_KEY)).catch(() => {});
        throw error;
      }
    }
    await ledger.complete(RUN_KEY, JSON.stringify(kept), ATTEMPT_WINDOW_MS);
    return kept;
  }

  /** What the approved run happens under: no request (it was answered), the call's account and request id. */
  private setup({ account, platform }: ResolvedAccount, requestId: string, log: Logger): CallSetup {
    return { env: this.env, ctx: this.ctx, requestId, log, arrivedAt: Date.now(), account, platform, deferred: true };
  }
}
