import type { LogFields, Logger } from './log.ts';

/** One problem with one argument, as the model should read it. */
export interface ArgumentProblem {
  argument: string;
  problem: string;
  expected?: string;
  example?: unknown;
  askCustomer?: boolean;
}

/**
 * The one error type of the runtime: an HTTP status, a stable code and a message written for the
 * AI model to read and act on. Anything else thrown becomes a 500 that reveals nothing.
 * @example throw new FunctionError(404, 'unknown_function', 'There is no function "x".')
 */
export class FunctionError extends Error {
  declare readonly status: number;
  declare readonly code: string;
  declare readonly details: ArgumentProblem[] | undefined;
  declare readonly headers: Record<string, string> | undefined;
  /**
   * True when the refused work may still have happened (a send whose answer was lost): a repeat
   * of the same write in the conversation is then not run again (docs/functions.md "Calls that repeat").
   */
  declare readonly mayHaveApplied: boolean;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { details?: ArgumentProblem[]; headers?: Record<string, string>; mayHaveApplied?: boolean } = {},
  ) {
    // A refusal is an answer, not a bug: its stack is never shown or logged, and capturing one
    // costs more than the rest of a refusal, so none is captured (zod skips its own the same way).
    const errorClass = Error as { stackTraceLimit?: number };
    const limit = errorClass.stackTraceLimit;
    errorClass.stackTraceLimit = 0;
    super(message);
    errorClass.stackTraceLimit = limit;
    this.name = 'FunctionError';
    this.status = status;
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
    this.mayHaveApplied = options.mayHaveApplied ?? false;
  }
}

/** How a refusal over the Worker's own setup ends: nothing the customer said can fix it. */
export const NOT_FIXABLE =
  'This is a configuration problem, not something the customer can fix: tell them you cannot do this right now.';

/**
 * The 401 of a key that is missing or wrong, and of an account the Worker does not serve: names,
 * accounts and methods all look alike to a caller without the name's key for that account.
 */
export const unauthorized = (): FunctionError =>
  new FunctionError(401, 'unauthorized', `The function key is missing or wrong. ${NOT_FIXABLE}`);

/** The 404 of a path the Worker serves nothing at (the router's, and a dev-only path deployed). */
export const notServedHere = (): FunctionError =>
  new FunctionError(404, 'not_found', 'Nothing is served here. Functions live under /functions/<name>.');

/** The 503 of a function whose setup is incomplete (`what` is not configured), failing closed. */
export const notConfigured = (what: string): FunctionError =>
  new FunctionError(
    503,
    'not_configured',
    `This function is not available right now: ${what} is not configured. Tell the customer you cannot do this at the moment.`,
  );

/**
 * The 503 of a call whose handler cannot have its platform client, `why` in the model's words; the
 * log line (`event`, `fields`) tells the author what to set.
 */
export const platformUnreachable = (
  log: Logger | undefined,
  event: string,
  fields: LogFields,
  why: string,
): FunctionError => {
  log?.error(event, fields);
  return new FunctionError(
    503,
    'platform_not_configured',
    `This function cannot reach the messaging platform: ${why}. Tell the customer you cannot do this right now.`,
  );
};

/**
 * The 503 of an account whose platform settings are not set (`missing`: the names of the settings,
 * never a value): the model reads what is missing, the log line which account.
 */
export const accountNotConfigured = (
  log: Logger | undefined,
  account: string,
  missing: readonly string[],
): FunctionError =>
  platformUnreachable(
    log,
    'account_not_configured',
    {
      account,
      missing: missing.join(', '),
      hint: 'set the variable the accounts file names for this account, or store its key: npm run accounts -- rotate <name>',
    },
    `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set on the Worker`,
  );

/** The JSON body of every error answer: `{"error": {"code", "message", "requestId", ...}}`. */
export const errorBody = (
  error: FunctionError,
  requestId: string,
): { error: { code: string; message: string; details: ArgumentProblem[] | undefined; requestId: string } } => ({
  // JSON leaves `details` out when there are none.
  error: { code: error.code, message: error.message, details: error.details, requestId },
});
