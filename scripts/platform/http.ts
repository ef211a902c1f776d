// Node http plumbing of the emulator: one error type, bounded JSON bodies, JSON answers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorShape } from './shapes.ts';

/** Largest request body the emulator reads (the spec shows no limit). */
export const BODY_LIMIT = 1024 * 1024;

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

/** The raw body as text, refusing more than BODY_LIMIT bytes. */
export const readText = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT)
      throw new EmulatorError(413, 'body_too_large', `The request body is over ${BODY_LIMIT} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
};

/** The JSON object of a request body: 415 without a JSON content type, 400 when it does not parse. */
export const readJsonObject = async (request: IncomingMessage): Promise<Record<string, unknown>> => {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    throw new EmulatorError(
      415,
      'unsupported_media_type',
      'Send the body as JSON with "Content-Type: application/json".',
    );
  }
  const text = await readText(request);
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

/** Writes a JSON answer. */
export const sendJson = (
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(text);
};

/** Writes the JSON error of `error`. */
export const sendError = (response: ServerResponse, error: EmulatorError) =>
  sendJson(response, error.status, errorShape(error.code, error.message, error.details), error.headers);
