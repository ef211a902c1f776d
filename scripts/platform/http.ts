// The emulator's answers and body reading, over fetch's Request and Response (any runtime): one
// error type, bounded JSON bodies (the Worker's own bounded reader), JSON answers.

import { FunctionError } from 'agent-functions';
import { readBody } from 'agent-functions/internal';
import { errorShape } from './shapes.ts';

/** Largest request body the emulator reads (the spec shows no limit). */
export const BODY_LIMIT: number = 1024 * 1024;

/** How long a request body may take to arrive. */
const BODY_DEADLINE_MS = 30_000;

/** A refusal with its status, code and a message saying what to fix. */
export class EmulatorError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: { details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = extra.details;
    this.headers = extra.headers ?? {};
  }
}

/** The JSON object of a request body: 415 without a JSON content type, 400 when it does not parse, 413 over BODY_LIMIT. */
export const readJsonObject = async (request: Request): Promise<Record<string, unknown>> => {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new EmulatorError(
      415,
      'unsupported_media_type',
      'Send the body as JSON with "Content-Type: application/json".',
    );
  }
  let text: string;
  try {
    text = await readBody(request, BODY_LIMIT, Date.now() + BODY_DEADLINE_MS);
  } catch (error) {
    // The Worker's refusal speaks to a model; this one to whoever calls the platform's API.
    if (error instanceof FunctionError && error.status === 413) {
      throw new EmulatorError(413, 'body_too_large', `The request body is over ${BODY_LIMIT} bytes.`);
    }
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new EmulatorError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new EmulatorError(400, 'invalid_body', 'The request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
};

/** A JSON answer. */
export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

/** The JSON error answer of a refusal (the emulator's own, or the Worker's bounded reader's). */
export const errorAnswer = (error: EmulatorError | FunctionError): Response =>
  jsonAnswer(error.status, errorShape(error.code, error.message, error.details), error.headers ?? {});
