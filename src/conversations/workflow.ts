// Deferred work, durably (docs/decisions/0006-deferred-work-on-workflows.md): one Workflow
// instance per deferred call runs the function again from the start under retries with growing
// delays, then sends the customer one message: the result, or an honest failure. The instance
// keeps its outcome for inspection (wrangler workflows instances describe). An MCP task's instance
// sends nothing: it keeps the outcome for the client's tasks/get (src/conversations/task.ts).
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import type { ResolvedAccount } from '../accounts/resolve.ts';
import type { CallSetup } from '../call.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import { createLogger, type Logger } from '../log.ts';
import type { RegisteredFunction } from '../registry.ts';
import { type FollowUpOutcome, sendFollowUp } from './followUp.ts';
import type { DeferredParams } from './params.ts';
import { actingIn, deferredRuntimesFor } from './runtime.ts';
import type { TaskOutcome } from './task.ts';
import { failureOf, followUpOf, recordWork, type WorkEnd, type WorkOf } from './workRecord.ts';

/** The customer's message when the work finally fails and the author wrote none. */
export const DEFAULT_FAILURE =
  'Sorry, I could not finish what I was checking for you. Please ask again, or ask for a colleague.';

/** What an instance keeps: how the work ended and what happened to the message (or, for a task, its outcome). */
export interface DeferredOutcome {
  work: 'done' | 'failed' | 'gone';
  message: FollowUpOutcome | 'failed' | 'none';
  task?: { outcome: TaskOutcome; finishedAt: number };
}

/** A refusal (404, 409, 422) says the same on every attempt: it is the outcome, not retried. */
const refusalOf = (error: unknown): FunctionError | undefined =>
  error instanceof FunctionError && error.status < 500 && error.status !== 429 && error.status !== 408
    ? error
    : undefined;

/** Default retries of the work after its first attempt. */
const DEFAULT_RETRIES = 4;

/** The customer's message when the work fails: the author's (for this refusal, if a function), else the default. */
const failureTextOf = (
  later: NonNullable<NonNullable<RegisteredFunction['policy']>['later']>,
  refusal?: { code: string; status: number },
): string => (typeof later.failure === 'function' ? later.failure(refusal) : (later.failure ?? DEFAULT_FAILURE));

/** One attempt of the work: what `ok` makes of its result, or what `refused` makes of a refusal. */
type Attempt = <T>(ok: (value: unknown) => T, refused: (refusal: FunctionError) => T) => Promise<T>;

/**
 * A task's work as a durable step, kept as JSON as a tool result goes: what tasks/get reads is what
 * a call would have answered; a failed task once every retry failed.
 */
const taskStep = async (
  step: WorkflowStep,
  options: Parameters<WorkflowStep['do']>[1],
  attempt: Attempt,
  log: Logger,
): Promise<TaskOutcome> => {
  const kept = await step
    .do('work', options, async () =>
      JSON.stringify(
        await attempt<TaskOutcome>(
          (value) => ({ ok: true, value: value ?? null }),
          ({ status, code, message }) => ({ ok: false, status, code, message }),
        ),
      ),
    )
    .catch((error: unknown) => {
      log.error('task_failed', {
        error: error instanceof Error ? error.name : typeof error,
        hint: 'the task ends failed; the instance keeps this outcome',
      });
      return JSON.stringify({ ok: false, failed: true });
    });
  return JSON.parse(kept) as TaskOutcome;
};

/** The workflow wrangler.toml binds as DEFERRED_CALLS (class_name "DeferredCall"); export it from worker.ts. */
export class DeferredCall extends WorkflowEntrypoint<Env, DeferredParams> {
  override async run(event: WorkflowEvent<DeferredParams>, step: WorkflowStep): Promise<DeferredOutcome> {
    const { name, args, conversation, requestId } = event.payload;
    // Instances created before calls knew their account acted in the first one.
    const accountName = event.payload.account as string | undefined;
    const log = createLogger({
      function: name,
      ...(accountName ? { account: accountName } : {}),
      requestId,
      deferred: event.instanceId,
    });
    const found = await actingIn(deferredRuntimesFor(name), this.env, accountName, log);
    const runtime = found?.runtime;
    const account = found?.account;
    const fn = runtime?.registry.get(name);
    const later = fn?.policy?.later;
    // The work's one record (src/record.ts), once it ended: from the instance's start.
    const of: WorkOf = { account: accountName ?? null, function: name, requestId };
    const record = (end: WorkEnd, message: DeferredOutcome['message'] = 'none') =>
      recordWork(
        step,
        'record',
        log,
        { kind: 'deferred', of, started: event.timestamp.getTime(), end, followUp: followUpOf(message) },
        this.env,
        this.ctx,
      );
    if (!runtime || !fn || !later || !account) {
      // Deployed away (or the account removed) since the call: nothing to run, nothing honest to promise.
      log.error('deferred_gone', { hint: 'the function, its later option or its account is no longer deployed' });
      await record({ status: 500, code: 'deferred_gone' });
      return { work: 'gone', message: 'none' };
    }
    const options = {
      retries: { limit: later.retries ?? DEFAULT_RETRIES, delay: '5 seconds', backoff: 'exponential' },
      timeout: fn.manifest.timeoutMs + 5_000,
    } as const;
    // How the last attempt failed, for the record (an error loses its class across a step).
    let failure: WorkEnd = { status: 500, code: 'function_failed' };
    /** One attempt of the work: what `ok` makes of its result, or what `refused` makes of a refusal. */
    const attempt: Attempt = async (ok, refused) => {
      try {
        const setup = this.setup(account, requestId, log);
        return ok(await runtime.execute(fn, setup, () => ({ args: structuredClone(args), conversation })));
      } catch (error) {
        const refusal = refusalOf(error);
        if (refusal) return refused(refusal);
        failure = failureOf(error);
        throw error;
      }
    };
    if (event.payload.task) {
      const outcome = await taskStep(step, options, attempt, log);
      // Its status and code only: a refusal's message is the author's text, never recorded.
      await record(
        outcome.ok ? { status: 200 } : 'status' in outcome ? { status: outcome.status, code: outcome.code } : failure,
      );
      return { work: outcome.ok ? 'done' : 'failed', message: 'none', task: { outcome, finishedAt: Date.now() } };
    }
    let work: DeferredOutcome['work'] = 'done';
    let end: WorkEnd = { status: 200 };
    let text: string;
    try {
      const done = await step.do('work', options, () =>
        attempt<{ text: string; refused?: string; status?: number }>(
          (value) => ({ text: later.message(value as never, args) }),
          (refusal) => ({
            text: failureTextOf(later, { code: refusal.code, status: refusal.status }),
            refused: refusal.code,
            status: refusal.status,
          }),
        ),
      );
      text = done.text;
      if (done.refused !== undefined) {
        work = 'failed';
        end = { status: done.status ?? 422, code: done.refused };
        log.warn('deferred_refused', { code: done.refused });
      }
    } catch (error) {
      work = 'failed';
      end = failure;
      text = failureTextOf(later);
      log.error('deferred_failed', {
        error: error instanceof Error ? error.name : typeof error,
        hint: 'the customer gets the failure message; the instance keeps this outcome',
      });
    }
    if (!conversation) {
      await record(end);
      return { work, message: 'none' };
    }
    const message = await this.messageCustomer(step, runtime, account, conversation, event.instanceId, log, text);
    await record(end, message);
    return { work, message };
  }

  /** The customer's one message, as a durable step; 'failed' once every retry failed. */
  private async messageCustomer(
    step: WorkflowStep,
    runtime: Parameters<typeof sendFollowUp>[0],
    account: ResolvedAccount,
    conversation: NonNullable<DeferredParams['conversation']>,
    id: string,
    log: Logger,
    text: string,
  ): Promise<DeferredOutcome['message']> {
    try {
      return await step.do('message', { retries: { limit: 5, delay: '5 seconds', backoff: 'exponential' } }, () =>
        sendFollowUp(runtime, this.env, log, id, account, conversation, text),
      );
    } catch (error) {
      log.error('follow_up_failed', { error: error instanceof Error ? error.name : typeof error });
      return 'failed';
    }
  }

  /** What one attempt of the work runs under: no request (it was answered), the call's account and request id. */
  private setup({ account, platform }: ResolvedAccount, requestId: string, log: Logger): CallSetup {
    return { env: this.env, ctx: this.ctx, requestId, log, arrivedAt: Date.now(), account, platform, deferred: true };
  }
}
