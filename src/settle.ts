// One call of one function with its one `invocation` log line, whatever the transport (HTTP or
// MCP): both log the same outcome, status and duration, and name a handler that threw.
import { type Env, isDevelopment, type WithProcess } from './env.ts';
import { FunctionError } from './errors.ts';
import type { LogFields, Logger } from './log.ts';
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
 * Runs `call` and logs how it ended on `logOf()`, read when the call ends (the call may bind the
 * logger to the function once it knows it). `fields` join the log line.
 * @example const outcome = await settle(() => log, started, requestId, () => invoke(fn, setup, url))
 */
export const settle = async (
  logOf: () => Logger,
  started: number,
  requestId: string,
  call: () => Promise<unknown>,
  fields: LogFields = {},
  /** The Worker's env: under npm run dev, a handler's error is logged with its message and where it was thrown. */
  env?: Env,
): Promise<Outcome> => {
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
  const status = outcome.ok ? 200 : outcome.error.status;
  const result = status === 200 ? 'ok' : status >= 500 ? 'error' : 'refused';
  // A refusal's code says which one (not_configured, invalid_arguments, ...) without reading the answer.
  const code = outcome.ok ? {} : { code: outcome.error.code };
  logOf().info('invocation', { outcome: result, status, ...code, durationMs: Date.now() - started, ...fields });
  return outcome;
};
