// The contract of the account store's admin endpoint (docs/sync-and-accounts.md "Onboarding a
// client"): its paths, what a PUT takes, what each answer holds, and the key that opens it. The
// Worker serves it (admin.ts) and the CLI calls it (through agent-functions/internal), so changing
// how keys are stored touches src/accounts/ and nothing in the CLI.
import { z } from 'zod';

export { accountsKey } from '../keys.ts';

/** Where the store's admin endpoint lives. */
export const ACCOUNTS_PATH = '/accounts';

/** The path of one stored account. */
export const accountPathOf = (name: string): string => `${ACCOUNTS_PATH}/${encodeURIComponent(name)}`;

/**
 * Where the Worker at `origin` relays account `name`'s platform requests with its stored key, and how
 * the relay takes the accounts key (a bearer token).
 * @example relayOf('https://fns.example.dev', 'client-acme').baseUrl // 'https://fns.example.dev/accounts/client-acme/platform'
 */
export const relayOf = (origin: string, name: string): { baseUrl: string; keyPlacement: 'bearer' } => ({
  baseUrl: `${origin.replace(/\/+$/, '')}${accountPathOf(name)}/platform`,
  keyPlacement: 'bearer' as const,
});

const secretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a secret name is a variable name such as SHOP_TOKEN');

const settingName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a setting name is a name such as timezone');

/** What a PUT of one account takes; what it leaves out keeps its stored value, `secrets` merge (null removes one). */
export interface StoredInput {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  keyPlacement?: 'header' | 'bearer' | 'query' | undefined;
  secrets?: Record<string, string | null> | undefined;
  /** The client business's settings (docs/sync-and-accounts.md "Settings per account"); given, they replace the stored ones. */
  settings?: Record<string, unknown> | undefined;
}

/** The PUT body's schema. */
export const storedInputSchema: z.ZodType<StoredInput> = z.strictObject({
  apiKey: z.string().trim().min(1, 'apiKey is empty').max(4096).optional(),
  baseUrl: z.url({ protocol: /^https?$/, error: 'baseUrl must be an http(s) address' }).optional(),
  keyPlacement: z.enum(['header', 'bearer', 'query']).optional(),
  // Merged into the stored ones; null removes one.
  secrets: z.record(secretName, z.string().max(8192).nullable()).optional(),
  settings: z.record(settingName, z.json()).optional(),
});

/** What GET and PUT answer of one account: names and dates, never a value. */
export interface StoredSummary {
  name: string;
  stored: true;
  updatedAt: number;
  baseUrl?: string | undefined;
  secretNames: string[];
  /** The names of its stored settings (their values are plain configuration, but only names are answered). */
  settingNames?: string[] | undefined;
  /** With PUT: false when the record sent was the one stored (nothing was written). */
  changed?: boolean | undefined;
}

/** Its schema. */
export const storedSummarySchema: z.ZodType<StoredSummary> = z.object({
  name: z.string(),
  stored: z.literal(true),
  updatedAt: z.number(),
  baseUrl: z.string().optional(),
  secretNames: z.array(z.string()),
  settingNames: z.array(z.string()).optional(),
  changed: z.boolean().optional(),
});

/** What DELETE answers. */
export const removedSchema: z.ZodType<{ name: string; stored: false; removed: boolean }> = z.object({
  name: z.string(),
  stored: z.literal(false),
  removed: z.boolean(),
});

/** The most names one page of GET /accounts holds. */
export const LIST_PAGE_MAX = 1000;

/** GET /accounts's query: names after `after`, starting with `prefix`, at most `limit` (none: every name). */
export interface ListQuery {
  after?: string | undefined;
  prefix?: string | undefined;
  limit?: number | undefined;
}

/** Its schema, over the url's search parameters. */
export const listQuerySchema: z.ZodType<ListQuery> = z.object({
  after: z.string().max(64).optional(),
  prefix: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(LIST_PAGE_MAX).optional(),
});

/** What GET /accounts answers: names and dates by name, and `next` (the `after` of the next page) when more follow. */
export interface StoredList {
  accounts: { name: string; updatedAt: number }[];
  next?: string | undefined;
}

/** Its schema. */
export const storedListSchema: z.ZodType<StoredList> = z.object({
  accounts: z.array(z.object({ name: z.string(), updatedAt: z.number() })),
  next: z.string().optional(),
});
