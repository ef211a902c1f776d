// Request -> arguments: body limit, envelopes, query strings, coercion of stringly values, and
// strict validation whose refusals tell the model exactly what to fix.

import type { z } from 'zod';
import { _safeParseAsync, type $ZodErrorClass, type $ZodIssue, type $ZodRawIssue, config, util } from 'zod/v4/core';
import { type Conversation, takeConversation } from './conversation.ts';
import { type ArgumentProblem, FunctionError } from './errors.ts';
import { ACCOUNT_QUERY, KEY_QUERY } from './keys.ts';
import { PLATFORM_ADDED_KEY } from './platform/protocol/contract.ts';
import type { ParameterInfo } from './schema/parameters.ts';
import { unwrap } from './schema/schemaDef.ts';

/** What an argument source read: the raw arguments, and the conversation the platform named. */
export interface ReadArguments {
  args: Record<string, unknown>;
  conversation?: Conversation | undefined;
  /** Identifiers the platform sent that could not be read (docs/platform-contract.md §9), for the log. */
  unreadable?: readonly string[] | undefined;
}

/** Object keys under which platforms wrap the arguments (docs/platform-contract.md §4, assumption A). */
export const ENVELOPE_KEYS = ['arguments', 'args', 'parameters', 'input'] as const;

/** Query parameters that carry credentials, never arguments. */
const RESERVED_QUERY = new Set([KEY_QUERY, ACCOUNT_QUERY]);

// An object, not null and not an array: zod's own test, already in every Worker's bundle.
const isPlainObject = util.isObject as (value: unknown) => value is Record<string, unknown>;

// A function's declared parameters by name, made once per function (its ParameterInfo list).
const byNameOf = new WeakMap<ParameterInfo[], Map<string, ParameterInfo>>();
const byName = (infos: ParameterInfo[]): Map<string, ParameterInfo> => {
  let found = byNameOf.get(infos);
  if (!found) {
    found = new Map(infos.map((i) => [i.name, i]));
    byNameOf.set(infos, found);
  }
  return found;
};

const utf8 = () => new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
// One decoder for every body of one chunk, each decoded whole (a call with no stream state left
// behind, even when it throws): making one per call was about a percent of a call's CPU.
const wholeDecoder = utf8();

const tooSlow = () =>
  new FunctionError(
    408,
    'body_timeout',
    'The arguments did not arrive in time, so the function was not called. Call it once more; if that fails too, tell the customer you cannot do this right now.',
  );

/**
 * Reads the body as text, refusing anything over `limit` bytes before it is all in memory, and a
 * body still arriving at `deadline` (ms since the epoch): a slow sender cannot hold a call open.
 */
export const readBody = async (request: Request, limit: number, deadline: number): Promise<string> => {
  const tooLarge = () =>
    new FunctionError(
      413,
      'body_too_large',
      `The request body is larger than ${limit} bytes. Send only the arguments the function needs.`,
    );
  const length = request.headers.get('content-length');
  const declared = length === null ? Number.NaN : Number(length);
  if (declared > limit) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  // One timer for the whole body: at the deadline it cancels the reader, which ends the pending read.
  let late = false;
  const timer = setTimeout(
    () => {
      late = true;
      reader.cancel().catch(() => {});
    },
    Math.max(0, deadline - Date.now()),
  );
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (late) throw tooSlow();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw tooLarge();
      chunks.push(value);
      // All the declared bytes are in: HTTP framing ends the body here, so waiting for the end
      // of the stream would cost one more read (about a tenth of a call) for nothing.
      if (size === declared) break;
    }
  } catch (error) {
    // Stop the sender: nothing more of this body will be read.
    reader.cancel().catch(() => {});
    throw late ? tooSlow() : error;
  } finally {
    clearTimeout(timer);
  }
  try {
    // One chunk (almost every call) is decoded whole: the streaming decoder costs a call more CPU.
    if (chunks.length === 1) return wholeDecoder.decode(chunks[0]);
    // Several are decoded as one stream, by a decoder of their own: a character split between two
    // chunks is read whole.
    const decoder = utf8();
    return chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join('') + decoder.decode();
  } catch {
    throw new FunctionError(
      400,
      'malformed_body',
      'The request body is not valid UTF-8 text. Send the arguments as a JSON object.',
    );
  }
};

// fromEntries defines each key as its own property: "__proto__" is an argument, not a prototype.
const fromSearchParams = (params: URLSearchParams, infos: ParameterInfo[]): Record<string, unknown> =>
  Object.fromEntries(
    [...new Set(params.keys())]
      .filter((key) => !RESERVED_QUERY.has(key))
      .map((key) => {
        const values = params.getAll(key);
        return [key, byName(infos).get(key)?.type === 'array' ? values : values[values.length - 1]];
      }),
  );

/** Takes the arguments out of `{"arguments": {...}}` and its kin, unless the schema declares that key. */
const unwrapEnvelope = (body: Record<string, unknown>, infos: ParameterInfo[]): Record<string, unknown> => {
  const declared = byName(infos);
  let envelope: string | undefined;
  let count = 0;
  for (const key of ENVELOPE_KEYS) {
    if (Object.hasOwn(body, key) && !declared.has(key)) {
      envelope = key;
      count++;
    }
  }
  if (count !== 1) return body;
  const inner = body[envelope as string];
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

/**
 * The raw arguments of a request whose body was already read, and the conversation identifiers
 * (docs/platform-contract.md §9) taken out of their top level.
 * @example rawArguments(request, url, '{"contactId":"c_1","orderNumber":"42"}', infos) // { args: { orderNumber: '42' }, conversation: { contactId: 'c_1' } }
 */
export const rawArguments = (request: Request, url: URL, body: string, infos: ParameterInfo[]): ReadArguments => {
  const top = (args: Record<string, unknown>): ReadArguments => ({ args, ...takeConversation(args, byName(infos)) });
  if (request.method === 'GET' || body.trim() === '') return top(fromSearchParams(url.searchParams, infos));
  let parsed: unknown;
  let valid = true;
  try {
    parsed = JSON.parse(body);
  } catch {
    valid = false;
  }
  // A JSON object is read as JSON whatever the declared type (curl sends a form type by default).
  if (isPlainObject(parsed)) {
    const read = top(parsed);
    read.args = unwrapEnvelope(read.args, infos);
    return read;
  }
  // Media types are case-insensitive (RFC 9110).
  const type = (request.headers.get('content-type') ?? '').trim().toLowerCase();
  if (type.startsWith('application/x-www-form-urlencoded'))
    return top(fromSearchParams(new URLSearchParams(body), infos));
  if (!valid) {
    throw new FunctionError(
      400,
      'malformed_body',
      'The request body is not valid JSON. Send the arguments as one JSON object, e.g. {"name": "value"}.',
    );
  }
  throw new FunctionError(
    400,
    'malformed_body',
    'The request body must be a JSON object of named arguments, e.g. {"name": "value"}, not an array or a single value.',
  );
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

/**
 * Where an issue is, as the schema names it: declared keys and list positions are kept, keys the
 * caller chose (those of a record, say) become "(key)", so no answer repeats the caller's text.
 */
const argumentPath = (schema: z.ZodType, path: PropertyKey[]): string => {
  const parts: string[] = [];
  let def = unwrap(schema);
  for (const segment of path) {
    if (typeof segment === 'number') {
      parts.push(String(segment));
      def = unwrap(def?.element);
    } else if (typeof segment === 'string' && def?.shape && Object.hasOwn(def.shape, segment)) {
      parts.push(segment);
      def = unwrap(def.shape[segment]);
    } else {
      parts.push('(key)');
      def = unwrap(def?.valueType);
    }
  }
  return parts.join('.') || '(arguments)';
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

/** Text to embed in a sentence: no trailing punctuation, so the sentence adds exactly one stop. */
const bare = (text: string) => text.replace(/[\s.;:,]+$/, '');

const describeProblem = (
  schema: z.ZodType,
  issue: z.core.$ZodIssue,
  info: ParameterInfo | undefined,
  args: Record<string, unknown>,
  infos: ParameterInfo[],
): ArgumentProblem => {
  const argument = argumentPath(schema, issue.path);
  const top = issue.path[0];
  // Absent at the top level is missing whatever the schema (an enum's "invalid option" included).
  const missing = issue.path.length === 1 && (typeof top !== 'string' || !Object.hasOwn(args, top));
  const expected = info ? phrases(info).expected : undefined;
  // zod quotes unknown keys; answers never repeat text the caller chose.
  const problem =
    issue.code === 'unrecognized_keys'
      ? `only ${infos.map((i) => `"${i.name}"`).join(', ')} are accepted`
      : issue.message === UNWORDED
        ? (ourWords(issue) as string)
        : ((expected && issue.path.length === 1 && isZodsOwnMessage(issue) ? ourWords(issue) : undefined) ??
          issue.message);
  return {
    argument,
    problem: missing ? 'missing' : bare(problem),
    ...(expected ? { expected } : {}),
    ...(info?.example !== undefined ? { example: info.example } : {}),
    ...(missing ? { askCustomer: true } : {}),
  };
};

/**
 * The message of an issue the 422 says in its own words (ourWords), never read. zod words every
 * issue no schema or check words itself (its locale's "Too big: expected number to be <=500"), and
 * telling that wording from an author's took it once more: 2.9% of the bench's invalid call's CPU
 * profile (docs/performance.md, "Where the time goes"), 0.1% left unworded. No one could write it.
 */
const UNWORDED = '\0';

/** The declared parameters of the refusal being worded, while zod words its issues (synchronously). */
let wording: Map<string, ParameterInfo> | undefined;

/**
 * zod's issue map for the parse, asked only about an issue no schema or check words itself: a
 * project's own z.config({ customError }) words it first, as it would; else a declared top-level
 * argument's issue that ourWords says is left unworded. A wrong type is zod's to word: its wording
 * decides whether ours replaces it (isZodsOwnMessage).
 */
const PARSE_CONTEXT = {
  error: (issue: $ZodRawIssue) => {
    if (issue.path?.length !== 1 || !wording?.has(String(issue.path[0])) || issue.code === 'invalid_type') return;
    const custom = config().customError?.(issue);
    return (typeof custom === 'string' ? custom : custom?.message) ?? (ourWords(issue as $ZodIssue) && UNWORDED);
  },
};

/**
 * True when a wrong type's message is zod's default, not one the function's author wrote; any
 * other issue zod would word is left UNWORDED for ours (PARSE_CONTEXT).
 */
const isZodsOwnMessage = (issue: z.core.$ZodIssue): boolean =>
  // Its "received ..." half reads the input, which a finished issue no longer carries.
  issue.code === 'invalid_type' && issue.message.startsWith(`Invalid input: expected ${issue.expected}`);

const SIZE_WORDS: Record<string, [big: string, small: string]> = {
  number: ['too large', 'too small'],
  int: ['too large', 'too small'],
  bigint: ['too large', 'too small'],
  date: ['too late', 'too early'],
  string: ['too long', 'too short'],
  array: ['too many items', 'too few items'],
  set: ['too many items', 'too few items'],
};

/**
 * What is wrong with a top-level argument, in a few words of ours: the sentence goes on with
 * "Expected ..." from the declaration, so zod's own wording of the same limit ("Too big: expected
 * number to be <=500") would only say it twice. A refinement's own message (custom) is kept.
 */
const ourWords = (issue: z.core.$ZodIssue): string | undefined => {
  switch (issue.code) {
    case 'too_big':
      return SIZE_WORDS[issue.origin]?.[0];
    case 'too_small':
      return SIZE_WORDS[issue.origin]?.[1];
    case 'invalid_type':
      return issue.expected === 'int'
        ? 'not a whole number'
        : `not ${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
    case 'invalid_value':
      return 'not one of the accepted values';
    case 'invalid_format':
      return 'not in the expected format';
    case 'not_multiple_of':
      return 'not an allowed step';
    default:
      return undefined;
  }
};

/** What every refusal says of one declared parameter: the same for each call, so worked out once. */
interface Phrases {
  expected: string;
  about: string;
}
const phrasesOf = new WeakMap<ParameterInfo, Phrases>();
const phrases = (info: ParameterInfo): Phrases => {
  let found = phrasesOf.get(info);
  if (!found) {
    // Whole numbers already start their constraints with "whole number".
    const expected = [info.whole ? 'a' : `a ${info.type},`, info.constraints.join(', ')].join(' ').replace(/,$/, '');
    found = { expected: bare(expected), about: info.description ? ` (${bare(info.description)})` : '' };
    phrasesOf.set(info, found);
  }
  return found;
};

const about = (info: ParameterInfo | undefined) => (info ? phrases(info).about : '');

const sentence = (p: ArgumentProblem, info: ParameterInfo | undefined) => {
  const example = p.example !== undefined ? ` For example: ${JSON.stringify(p.example)}.` : '';
  if (p.problem === MISSPELLED)
    return `"${p.argument}"${about(info)} was sent under a misspelled name: send it again as "${p.argument}".`;
  if (p.askCustomer)
    return `"${p.argument}"${about(info)} is missing: ask the customer for it if they have not said it yet. Expected ${p.expected}.${example}`;
  return `"${p.argument}"${about(info)} is not valid: ${p.problem}. Expected ${p.expected ?? 'a valid value'}.${example} If you are not sure of the right value, ask the customer.`;
};

const MISSPELLED = 'misspelled';

/** Lower case without separators: `customerName`, `customer_name` and `Customer-Name` are one name. */
const fold = (name: string) => name.toLowerCase().replace(/[-_\s]/g, '');

/** Edits (insert, delete, substitute, swap two neighbours) between two short names, capped at 3. */
const distance = (a: string, b: string): number => {
  if (Math.abs(a.length - b.length) > 2 || a.length > 64 || b.length > 64) return 3;
  // The rows of the table two above, one above and this one: edits between a's first i letters and b's first j.
  let before: number[] = [];
  let above = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const swapped = i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1];
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        swapped ? (before[j - 2] as number) + 1 : 3,
      );
    }
    [before, above] = [above, row];
  }
  return Math.min(3, above[b.length] as number);
};

/**
 * The declared parameter an undeclared key most likely misspells, if any: the same name folded, or
 * one edit away (two for names of 8 letters or more). Keys the platform adds are never misspellings.
 * @example misspelledParameter('curency', infos, {}) // 'currency'
 */
export const misspelledParameter = (
  key: string,
  infos: ParameterInfo[],
  args: Record<string, unknown>,
): string | undefined => {
  if (byName(infos).has(key) || PLATFORM_ADDED_KEY.test(key)) return undefined;
  const folded = fold(key);
  let found: string | undefined;
  let best = 3;
  for (const { name } of infos) {
    if (Object.hasOwn(args, name)) continue;
    const target = fold(name);
    const edits = folded === target ? 0 : target.length < 4 ? 3 : distance(folded, target);
    if (edits < best && edits <= (target.length >= 8 ? 2 : 1)) {
      best = edits;
      found = name;
    }
  }
  return found;
};

/** A failed parse's issues, without the ZodError (an Error subclass) zod would build around them. */
class Issues {
  declare readonly issues: $ZodIssue[];
  constructor(issues: $ZodIssue[]) {
    this.issues = issues;
  }
}

// zod's own safeParseAsync with a plain holder for the issues: a 422 reads only `issues`, and
// constructing the ZodError was the largest zod frame of an invalid call's profile.
const safeParseAsync = _safeParseAsync(Issues as unknown as $ZodErrorClass);

/** Validates against the schema; on failure a 422 naming each wrong, missing or misspelled argument once. */
export const validateArguments = async <S extends z.ZodType>(
  schema: S,
  args: Record<string, unknown>,
  infos: ParameterInfo[],
): Promise<z.output<S>> => {
  // Made only when a key is misspelled: a valid call allocates nothing here.
  let typoOf: Map<string, string> | undefined;
  for (const key of Object.keys(args)) {
    const name = misspelledParameter(key, infos, args);
    if (name === undefined || typoOf?.has(name)) continue;
    typoOf ??= new Map();
    typoOf.set(name, key);
  }
  const result = await safeParseAsync(schema, args, PARSE_CONTEXT);
  if (result.success && !typoOf) return result.data as z.output<S>;
  const misspelled = typoOf ?? new Map<string, string>();
  const named = byName(infos);
  // zod words the issues when they are first read, here: nothing else runs in between.
  wording = named;
  let issues: $ZodIssue[];
  try {
    issues = result.success ? [] : result.error.issues;
  } finally {
    wording = undefined;
  }
  const details: ArgumentProblem[] = [];
  const described: (ParameterInfo | undefined)[] = [];
  const seen = new Set<string>();
  for (const [name] of misspelled) {
    seen.add(name);
    details.push({ argument: name, problem: MISSPELLED });
    described.push(named.get(name));
  }
  const typos = new Set(misspelled.values());
  for (const issue of issues) {
    const info = named.get(String(issue.path[0]));
    // The misspelled keys are already explained.
    if (issue.code === 'unrecognized_keys' && issue.keys.every((k) => typos.has(k))) continue;
    const problem = describeProblem(schema, issue, info, args, infos);
    // One problem per argument: a number past the safe range fails two checks of one number.
    if (seen.has(problem.argument) || (info && seen.has(info.name) && misspelled.has(info.name))) continue;
    seen.add(problem.argument);
    details.push(problem);
    described.push(info);
  }
  const message = `The function was not called because ${details.length === 1 ? 'one argument is' : `${details.length} arguments are`} wrong. ${details
    .map((d, i) => sentence(d, described[i]))
    .join(' ')} Then call the function again.`;
  throw new FunctionError(422, 'invalid_arguments', message, { details });
};
