// The one place that turns results and errors into responses.
import { errorBody, FunctionError } from './errors.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

/** A JSON answer carrying the request id. */
export const jsonResponse = (
  body: unknown,
  status: number,
  requestId: string,
  headers?: Record<string, string>,
): Response => {
  // One literal on the common path: spreading costs more than the rest of the headers.
  const all = { 'content-type': JSON_TYPE, 'x-request-id': requestId, 'cache-control': 'no-store' };
  return new Response(JSON.stringify(body ?? null), { status, headers: headers ? { ...all, ...headers } : all });
};

/** Any thrown value as a FunctionError; unknown errors become a 500 that reveals nothing. */
export const asFunctionError = (error: unknown, requestId: string): FunctionError =>
  error instanceof FunctionError
    ? error
    : new FunctionError(
        500,
        'function_failed',
        `The function failed unexpectedly (request ${requestId}). Apologise to the customer, do not retry more than once, and offer another way to help.`,
      );

/** Any thrown value as the JSON error shape; unknown errors become a 500 that reveals nothing. */
export const errorResponse = (error: unknown, requestId: string): Response => {
  const known = asFunctionError(error, requestId);
  return jsonResponse(errorBody(known, requestId), known.status, requestId, known.headers);
};

/** A request id, always the Worker's own: a caller must not choose what the logs and the answer quote. */
export const newRequestId = (): string => crypto.randomUUID();

/**
 * The caller's `X-Request-Id`, if any, reduced to a short token safe to log beside ours.
 * @example callerRequestId(new Request(url, { headers: { 'x-request-id': 'conv-42' } })) // 'conv-42'
 */
export const callerRequestId = (request: Request): string | undefined => {
  const given = request.headers.get('x-request-id');
  const token = given?.replace(/[^A-Za-z0-9._:-]/g, '').slice(0, 64);
  return token || undefined;
};
