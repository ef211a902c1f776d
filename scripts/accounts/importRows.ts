// The rows of an `npm run accounts -- import` file: CSV (a header line naming the columns) or JSON
// (an array of objects, or { "accounts": [...] }), each a client with its name, key, base url and
// settings. A row that cannot be read is named by its account (or its line) with what is wrong,
// never with its key; the others go on.

import { ACCOUNT_NAME } from 'agent-functions/platform';
import { parse } from 'csv-parse/sync';
import { type AccountConfig, settingsSchema } from '../project/accounts.ts';

/** One client to onboard. */
export interface ImportRow {
  /** Where it is in the file: "line 4" (CSV) or "entry 3" (JSON). */
  at: string;
  name: string;
  key: string;
  baseUrl: string | undefined;
  settings: AccountConfig['settings'];
}

/** Why a row is not onboarded: the kinds the command reports (docs/sync-and-accounts.md "Importing clients"). */
export type RowProblemKind =
  | 'bad key'
  | 'unknown address'
  | 'duplicate name'
  | 'invalid settings'
  | 'invalid name'
  | 'not stored';

/** A row that cannot be onboarded, by account name (or place, when it has no usable name). */
export interface RowProblem {
  at: string;
  name: string;
  kind: RowProblemKind;
  problem: string;
}

/** The column a header names: spaces, case, "_" and "-" do not count; api key is key. */
const COLUMNS: Record<string, keyof Omit<ImportRow, 'at'>> = {
  name: 'name',
  account: 'name',
  key: 'key',
  apikey: 'key',
  baseurl: 'baseUrl',
  url: 'baseUrl',
  settings: 'settings',
};
const columnOf = (header: string) => COLUMNS[header.toLowerCase().replace(/[\s_-]/g, '')];

/** The file's records as plain objects, each with where it was; throws a sentence when the file is neither. */
const recordsOf = (text: string, path: string): { at: string; record: Record<string, unknown> }[] => {
  const trimmed = text.trimStart();
  if (path.endsWith('.json') || trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let content: unknown;
    try {
      content = JSON.parse(text);
    } catch (error) {
      throw new Error(`${path} is not valid JSON: ${(error as Error).message.split('\n')[0]}`);
    }
    const list = Array.isArray(content) ? content : (content as { accounts?: unknown } | null)?.accounts;
    if (!Array.isArray(list)) throw new Error(`${path}: expected an array of accounts (or { "accounts": [...] }).`);
    return list.map((record, i) => ({
      at: `entry ${i + 1}`,
      record: typeof record === 'object' && record !== null ? (record as Record<string, unknown>) : {},
    }));
  }
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true, relax_column_count: true });
  } catch (error) {
    throw new Error(`${path} is not valid CSV: ${(error as Error).message.split('\n')[0]}`);
  }
  // Line numbers as a person sees them: the header is line 1.
  return rows.map((record, i) => ({ at: `line ${i + 2}`, record }));
};

/** One record as a row, or what is wrong with it (never its key). */
const rowOf = (at: string, record: Record<string, unknown>): ImportRow | RowProblem => {
  const fields: Partial<Record<keyof Omit<ImportRow, 'at'>, unknown>> = {};
  for (const [header, value] of Object.entries(record)) {
    const column = columnOf(header);
    if (column && value !== '' && value !== null && value !== undefined) fields[column] = value;
  }
  const name = typeof fields.name === 'string' ? fields.name.trim() : '';
  if (!ACCOUNT_NAME.test(name)) {
    return { at, name: name || `(${at})`, kind: 'invalid name', problem: 'not an account name such as "client-acme"' };
  }
  const key = typeof fields.key === 'string' ? fields.key.trim() : '';
  if (!key || /\s/.test(key)) {
    return { at, name, kind: 'bad key', problem: key ? 'the key holds a space or a line break' : 'no key' };
  }
  const baseUrl = typeof fields.baseUrl === 'string' ? fields.baseUrl.trim().replace(/\/+$/, '') : undefined;
  if (baseUrl !== undefined && !/^https?:\/\/[^\s/]+/.test(baseUrl)) {
    return { at, name, kind: 'unknown address', problem: `"${baseUrl.slice(0, 80)}" is not an http(s) address` };
  }
  let settings = fields.settings;
  if (typeof settings === 'string') {
    try {
      settings = JSON.parse(settings);
    } catch {
      return { at, name, kind: 'invalid settings', problem: 'settings is not a JSON object' };
    }
  }
  const parsed = settings === undefined ? undefined : settingsSchema.safeParse(settings);
  if (parsed && !parsed.success) {
    const where = parsed.error.issues.map((issue) => issue.path.join('.') || 'settings').join(', ');
    return { at, name, kind: 'invalid settings', problem: `settings must be an object of plain values (${where})` };
  }
  return { at, name, key, baseUrl, settings: parsed?.data };
};

/**
 * The rows of an import file's `text` (read from `path`, for messages), and the problems of those
 * that cannot be read; a name given twice fails its later rows ("duplicate name").
 * @example readImportRows('name,key\nclient-a,pk_1\n', 'clients.csv').rows[0].name // 'client-a'
 */
export const readImportRows = (text: string, path: string): { rows: ImportRow[]; problems: RowProblem[] } => {
  const rows: ImportRow[] = [];
  const problems: RowProblem[] = [];
  const seen = new Map<string, string>();
  for (const { at, record } of recordsOf(text, path)) {
    const row = rowOf(at, record);
    if ('kind' in row) {
      problems.push(row);
      continue;
    }
    const earlier = seen.get(row.name);
    if (earlier) {
      problems.push({ at, name: row.name, kind: 'duplicate name', problem: `the file gives it at ${earlier} too` });
      continue;
    }
    seen.set(row.name, at);
    rows.push(row);
  }
  return { rows, problems };
};
