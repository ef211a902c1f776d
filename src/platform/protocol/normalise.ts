// Response bodies -> the client's types, tolerant of every shape docs/platform-contract.md §5 allows, since the
// spec shows none: a bare array or one under data/items/results; `id` or `_id`; a next cursor or url
// in the body or a Link rel="next" header.
import { ID_KEYS, LIST_KEYS, NEXT_KEYS } from './contract.ts';
import type { RemoteFunction } from './function.ts';
import type { PlatformRecord, Webhook } from './types.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One page of a list: its records and where the next page is, if anywhere. */
export interface Page {
  items: unknown[];
  /** A cursor to send back, or a url (absolute or relative) to follow. */
  next: string | undefined;
}

/** The record of a single-record answer, unwrapped from `{ data: {...} }` when wrapped. */
export const unwrapRecord = (body: unknown): Record<string, unknown> => {
  if (isObject(body) && isObject(body.data) && Object.keys(body).every((key) => key === 'data' || key === 'meta')) {
    return body.data;
  }
  return isObject(body) ? body : {};
};

/**
 * A record with its identifier under `id`, whichever key the platform used.
 * @example withId({ _id: 7, name: 'a' }) // { id: '7', _id: 7, name: 'a' }
 */
export const withId = <T extends PlatformRecord>(body: unknown): T => {
  const record = unwrapRecord(body);
  const raw = ID_KEYS.map((key) => record[key]).find((value) => typeof value === 'string' || typeof value === 'number');
  return { ...record, id: raw === undefined ? '' : String(raw) } as T;
};

const nextFromLink = (link: string | null): string | undefined => {
  for (const part of link?.split(',') ?? []) {
    const match = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (match?.[1] && /\brel\s*=\s*"?(?:[^"]*\s)?next(?:\s[^"]*)?"?/i.test(match[2] ?? '')) return match[1];
  }
  return undefined;
};

/** The records and next-page pointer of one list answer. */
export const parsePage = (body: unknown, headers: Headers): Page => {
  let items: unknown[] = [];
  let next: string | undefined;
  if (Array.isArray(body)) items = body;
  else if (isObject(body)) {
    const key = LIST_KEYS.find((candidate) => Array.isArray(body[candidate]));
    items = key ? (body[key] as unknown[]) : [];
    const pointer = NEXT_KEYS.map((candidate) => body[candidate]).find((value) => typeof value === 'string' && value);
    next = pointer as string | undefined;
  }
  return { items, next: next ?? nextFromLink(headers.get('link')) };
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A listed custom function in the client's one shape; parameter types kept as the platform sent them. */
export const toRemoteFunction = (item: unknown): RemoteFunction => {
  const record = withId(item);
  const parameters = isObject(record.parameters)
    ? Object.fromEntries(Object.entries(record.parameters).map(([key, value]) => [key, String(value)]))
    : {};
  return {
    id: record.id,
    name: text(record.name),
    description: text(record.description),
    url: text(record.url),
    parameters,
  };
};

/** A webhook in the client's one shape: its id, url and events, whatever else the platform sent kept. */
export const toWebhook = (item: unknown): Webhook => {
  const record = withId<Webhook>(item);
  const events = Array.isArray(record.events) ? record.events.filter((e): e is string => typeof e === 'string') : [];
  return { ...record, url: text(record.url), events };
};
