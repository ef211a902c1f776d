// One call of one function with its one `invocation` log line, whatever the transport (HTTP or
// MCP): both log the same outcome, status and duration, and name a handler that threw.
import { FunctionError } from './errors.ts';
import type { LogFields, Logger } from './log.ts';
import { asFunctionError } from './respond.ts';

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
): Promise<Outcome> => {
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: await call() };
  } catch (error) {
    if (!(error instanceof FunctionError)) {
      logOf().error('handler_failed', { error: error instanceof Error ? error.name : typeof error });
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
