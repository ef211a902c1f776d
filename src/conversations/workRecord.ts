// The one record (src/record.ts) of work a workflow instance does after its call was answered:
// deferred work, and an approval's decision and run (src/approval/workflow.ts). Observed in a step
// of its own, so a replayed instance (its run starts again and finds its steps done) never records
// the same work twice, and a record that cannot be made never changes the work.
import type { WorkflowStep } from 'cloudflare:workers';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import type { Logger } from '../log.ts';
import { type CallRecord, closeRecord, observe, openRecord, type RecordKind } from '../record.ts';
import type { FollowUpOutcome } from './followUp.ts';

/** What a work record names: the call's account, function and request id. */
export interface WorkOf {
  account: string | null;
  function: string;
  requestId: string;
}

/** How the work ended: done, or the status and code of its refusal or failure. */
export type WorkEnd = { status: number; code?: string | undefined };

/** The status and code a failed attempt ends the record with: a refusal's, a timeout, else a failure. */
export const failureOf = (error: unknown): WorkEnd =>
  error instanceof FunctionError
    ? { status: error.status, code: error.code }
    : error instanceof DOMException && error.name === 'TimeoutError'
      ? { status: 504, code: 'timeout' }
      : { status: 500, code: 'function_failed' };

/** A follow-up's outcome as a record says it: sent, failed (not sent, or not known to be), or nothing to say. */
export const followUpOf = (message: FollowUpOutcome | 'failed' | 'none'): CallRecord['followUp'] =>
  message === 'sent' ? 'sent' : message === 'failed' || message === 'ambiguous' ? 'failed' : undefined;

/**
 * Observes the record of `kind` work of `of` that began at `started` and ended as `end`, once, as
 * step `name` of the instance.
 * @example await recordWork(step, 'record', log, { kind: 'deferred', of, started, end: { status: 200 } }, env, ctx)
 */
export const recordWork = (
  step: WorkflowStep,
  name: string,
  log: Logger,
  work: { kind: RecordKind; of: WorkOf; started: number; end: WorkEnd; followUp?: CallRecord['followUp'] },
  env: Env,
  ctx: { waitUntil(promise: Promise<unknown>): void },
): Promise<unknown> =>
  step
    .do(name, async () => {
      const record = openRecord('workflow', work.of.requestId, work.kind);
      record.account = work.of.account;
      record.function = work.of.function;
      record.followUp = work.followUp;
      observe(log, closeRecord(record, work.end.status, work.end.code, work.started), env, ctx);
      return true;
    })
    .catch(() => false);
