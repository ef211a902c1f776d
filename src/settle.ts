// One call of one function with its one record (src/record.ts), whatever the transport (HTTP or
// MCP): both end the record the transport built with the same outcome, status and duration, hand
// it to the observation point, and name a handler that threw.
import { type Env, isDevelopment, type WithProcess } from './env.ts';
import { FunctionError } from './errors.ts';
import type { Logger } from './log.ts';
import { type CallRecord, closeRecord, observe, type RecordContext } from './record.ts';
import { asFunctionError } from './respond.ts';

/**
 * What a development log line tells of a thrown error: its message and the first frame of its stack
 * that is not the framework's own (`at`: file:line:column, as the bundle's source map names it when
 * the runtime maps stacks).
 */
const thrownAt = (error: unknown): { message?: string; at?: string } => {
  if (!(error instanceof Error)) return { message: String(error).slice(0, 500) };
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const frame =
    frames.find((line) => !/[/\\](src|dist)[/\\](invoke|settle|createWorker|timeout)\.[jt]s/.test(line)) ?? frames[0];
  const at = frame ? /\(?([^\s()]+:\d+:\d+)\)?\s*$/.exec(frame)?.[1] : undefined;
  return { message: error.message.slice(0, 500), ...(at ? { at } : {}) };
};

/** A call's result, or its refusal as the FunctionError the caller answers with. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: FunctionError };

/**
 * Runs `call` and ends `record` with how it went, observed on `logOf()`, read when the call ends
 * (the call may bind the logger to the function and account once it knows them, and fill them in
 * on the record, which the features mark through `CallSetup.mark`).
 * @example const outcome = await settle(() => log, started, openRecord('http', requestId), () => invoke(fn, setup, url), env, ctx)
 */
export const settle = async (
  logOf: () => Logger,
  started: number,
  record: CallRecord,
  call: () => Promise<unknown>,
  /** The Worker's env: under npm run dev, a handler's error is logged with its message and where it was thrown. */
  env?: Env,
  /** The handler's context: its waitUntil for the record's sink. */
  ctx?: RecordContext,
): Promise<Outcome> => {
  const { requestId } = record;
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: await call() };
  } catch (error) {
    if (!(error instanceof FunctionError)) {
      logOf().error('handler_failed', {
        error: error instanceof Error ? error.name : typeof error,
        // Under npm run dev only (spelled out, so a production bundle drops it): what was thrown and
        // where. Deployed, the line names the kind of error only: a message may carry secrets or a
        // customer's data (docs/security.md).
        ...((globalThis as WithProcess).process?.env.NODE_ENV !== 'production' && env && isDevelopment(env)
          ? thrownAt(error)
          : {}),
      });
    }
    outcome = { ok: false, error: asFunctionError(error, requestId) };
  }
  // A refusal's code says which one (not_configured, invalid_arguments, ...) without reading the answer.
  const failed = outcome.ok ? undefined : outcome.error;
  closeRecord(record, failed?.status ?? 200, failed?.code, started);
  observe(logOf(), record, env, ctx);
  return outcome;
};
