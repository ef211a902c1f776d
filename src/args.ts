// Request -> arguments: body limit, envelopes, query strings, coercion of stringly values, and
// strict validation whose refusals tell the model exactly what to fix.
import type { z } from 'zod';
import { type ArgumentProblem, FunctionError } from './errors.ts';
import { KEY_QUERY } from './keys.ts';
import type { ParameterInfo } from './parameters.ts';

/** Object keys under which platforms wrap the arguments (CONTRACT section 4, assumption A). */
export const ENVELOPE_KEYS = ['arguments', 'args', 'parameters', 'input'] as const;

/** Query parameters that carry credentials, never arguments. */
const RESERVED_QUERY = new Set([KEY_QUERY]);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads the body as text, refusing anything over `limit` bytes before it is all in memory. */
export const readBody = async (request: Request, limit: number): Promise<string> => {
  const tooLarge = () =>
    new FunctionError(
      413,
      'body_too_large',
      `The request body is larger than ${limit} bytes. Send only the arguments the function needs.`,
    );
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new FunctionError(
      400,
      'malformed_body',
      'The request body is not valid UTF-8 text. Send the arguments as a JSON object.',
    );
  }
};

const fromSearchParams = (params: URLSearchParams, infos: ParameterInfo[]): Record<string, unknown> => {
  const arrays = new Set(infos.filter((i) => i.type === 'array').map((i) => i.name));
  const args: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    if (RESERVED_QUERY.has(key)) continue;
    const values = params.getAll(key);
    Object.defineProperty(args, key, {
      value: arrays.has(key) ? values : values[values.length - 1],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return args;
};

/** Takes the arguments out of `{"arguments": {...}}` and its kin, unless the schema declares that key. */
const unwrapEnvelope = (body: Record<string, unknown>, infos: ParameterInfo[]): Record<string, unknown> => {
  const declared = new Set(infos.map((i) => i.name));
  const present = ENVELOPE_KEYS.filter((key) => Object.hasOwn(body, key) && !declared.has(key));
  if (present.length !== 1) return body;
  const inner = body[present[0] as string];
  if (isPlainObject(inner)) return inner;
  if (typeof inner === 'string') {
    try {
      const parsed: unknown = JSON.parse(inner);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Not JSON: leave the body as it is and let validation explain.
    }
  }
  return body;
};

/** The raw arguments of a request whose body was already read. */
export const rawArguments = (
  request: Request,
  url: URL,
  body: string,
  infos: ParameterInfo[],
): Record<string, unknown> => {
  if (request.method === 'GET' || body.trim() === '') return fromSearchParams(url.searchParams, infos);
  const type = request.headers.get('content-type') ?? '';
  if (type.startsWith('application/x-www-form-urlencoded')) return fromSearchParams(new URLSearchParams(body), infos);
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new FunctionError(
      400,
      'malformed_body',
      'The request body is not valid JSON. Send the arguments as one JSON object, e.g. {"name": "value"}.',
    );
  }
  if (!isPlainObject(parsed)) {
    throw new FunctionError(
      400,
      'malformed_body',
      'The request body must be a JSON object of named arguments, e.g. {"name": "value"}, not an array or a single value.',
    );
  }
  return unwrapEnvelope(parsed, infos);
};

const NUMBER = /^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?\s*$/;

const coerceValue = (value: unknown, info: ParameterInfo, isDate: boolean): unknown => {
  if (typeof value !== 'string') return value;
  if (isDate) {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? value : date;
  }
  switch (info.type) {
    case 'number':
      return NUMBER.test(value) ? Number(value) : value;
    case 'boolean': {
      const lower = value.trim().toLowerCase();
      return lower === 'true' ? true : lower === 'false' ? false : value;
    }
    case 'array':
    case 'object': {
      try {
        const parsed: unknown = JSON.parse(value);
        return (info.type === 'array') === Array.isArray(parsed) && typeof parsed === 'object' ? parsed : value;
      } catch {
        return info.type === 'array' ? [value] : value;
      }
    }
    default:
      return value;
  }
};

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** Whether a top-level field is a z.date() under its optional/nullable/default wrappers. */
export const isDateField = (field: z.ZodType | undefined): boolean => {
  let current = field?._zod.def as { type: string; innerType?: z.ZodType } | undefined;
  while (current && WRAPPERS.has(current.type) && current.innerType)
    current = current.innerType._zod.def as typeof current;
  return current?.type === 'date';
};

/** Turns `"3"` into 3 and `"true"` into true where the schema wants a number or a boolean. */
export const coerceArguments = (
  args: Record<string, unknown>,
  infos: ParameterInfo[],
  dates: Set<string>,
): Record<string, unknown> => {
  for (const info of infos) {
    if (Object.hasOwn(args, info.name)) args[info.name] = coerceValue(args[info.name], info, dates.has(info.name));
  }
  return args;
};

const describeProblem = (
  issue: z.core.$ZodIssue,
  info: ParameterInfo | undefined,
  args: Record<string, unknown>,
): ArgumentProblem => {
  const argument = issue.path.map(String).join('.') || '(arguments)';
  const top = issue.path[0];
  const missing =
    issue.code === 'invalid_type' && issue.path.length === 1 && (typeof top !== 'string' || !Object.hasOwn(args, top));
  const expected = info
    ? // Whole numbers already start their constraints with "whole number".
      [info.whole ? 'a' : `a ${info.type},`, info.constraints.join(', ')].join(' ').replace(/,$/, '')
    : undefined;
  return {
    argument,
    problem: missing ? 'missing' : issue.message,
    ...(expected ? { expected } : {}),
    ...(info?.example !== undefined ? { example: info.example } : {}),
    ...(missing ? { askCustomer: true } : {}),
  };
};

const sentence = (p: ArgumentProblem, info: ParameterInfo | undefined) => {
  const about = info?.description ? ` (${info.description.replace(/\.$/, '')})` : '';
  const example = p.example !== undefined ? ` For example: ${JSON.stringify(p.example)}.` : '';
  if (p.askCustomer)
    return `"${p.argument}"${about} is missing: ask the customer for it if they have not said it yet. Expected ${p.expected}.${example}`;
  return `"${p.argument}"${about} is not valid: ${p.problem}. Expected ${p.expected ?? 'a valid value'}.${example} If you are not sure of the right value, ask the customer.`;
};

/** Validates against the schema; on failure a 422 naming each wrong or missing argument. */
export const validateArguments = async <S extends z.ZodType>(
  schema: S,
  args: Record<string, unknown>,
  infos: ParameterInfo[],
): Promise<z.output<S>> => {
  const result = await schema.safeParseAsync(args);
  if (result.success) return result.data;
  const byName = new Map(infos.map((i) => [i.name, i]));
  const problems = result.error.issues.map((issue) => ({ issue, info: byName.get(String(issue.path[0])) }));
  const details = problems.map(({ issue, info }) => describeProblem(issue, info, args));
  const message = `The function was not called because ${details.length === 1 ? 'one argument is' : `${details.length} arguments are`} wrong. ${details
    .map((d, i) => sentence(d, problems[i]?.info))
    .join(' ')} Then call the function again.`;
  throw new FunctionError(422, 'invalid_arguments', message, { details });
};
