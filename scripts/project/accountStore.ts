// The Worker's account store as the CLI reaches it: the endpoint's paths, schemas and key are the
// framework's (src/accounts/contract.ts, through agent-functions/internal), and every answer is
// checked against them. It answers names and dates, never a key; every failure becomes one
// sentence saying what to do.
import {
  ACCOUNTS_PATH,
  accountPathOf,
  accountsKey,
  LIST_PAGE_MAX,
  type ListQuery,
  removedSchema,
  type StoredInput,
  type StoredList,
  type StoredSummary,
  storedListSchema,
  storedSummarySchema,
} from 'agent-functions/internal';
import type { z } from 'zod';

export type { StoredInput, StoredSummary };

/** The store refused or could not be reached; the message says what to do. */
export class StoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreError';
  }
}

/** The account store of the Worker at `origin`. */
export const storeClient = (origin: string, secret: string, fetchImpl: typeof fetch = fetch) => {
  const base = origin.replace(/\/+$/, '');
  const request = async (method: string, path: string, body?: unknown): Promise<Response> => {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await accountsKey(secret)}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      throw new StoreError(
        `Could not reach the Worker at ${base} (${(error as Error).message}): is FUNCTIONS_BASE_URL its address, and is it deployed?`,
      );
    }
    if (
      response.ok ||
      (response.status === 404 && method === 'GET' && !path.startsWith(`${ACCOUNTS_PATH}?`) && path !== ACCOUNTS_PATH)
    )
      return response;
    const text = await response.text();
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? message;
    } catch {
      // Not the Worker's JSON error: keep the start of the text.
    }
    if (response.status === 401) {
      throw new StoreError(
        `The Worker at ${base} refused the accounts key (401): FUNCTIONS_SECRET here is not the Worker's (npm run secrets -- put), or the Worker serves no account store.`,
      );
    }
    if (response.status === 404) {
      throw new StoreError(
        `The Worker at ${base} serves no account store (404): pass \`accountStore\` (agent-functions/accounts) to createWorker in worker.ts (and \`store: readStoredAccount\` in its \`accounts: serveAccounts(...)\`), bind ACCOUNT_STORE in wrangler.toml, and deploy.`,
      );
    }
    throw new StoreError(`The account store at ${base} answered ${response.status}: ${message}`);
  };
  /** The answer's JSON, checked against the endpoint's schema. */
  const read = async <T>(response: Response, schema: z.ZodType<T>): Promise<T> => {
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new StoreError(
        `The account store at ${base} answered in a shape this CLI does not know: update agent-functions-cli to the Worker's version (or deploy the Worker again).`,
      );
    }
    return parsed.data;
  };
  const page = async (query: ListQuery): Promise<StoredList> => {
    const search = new URLSearchParams(
      Object.entries(query).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])),
    );
    const suffix = search.size > 0 ? `?${search}` : '';
    return read(await request('GET', `${ACCOUNTS_PATH}${suffix}`), storedListSchema);
  };
  return {
    /** Stores (or replaces) `name`'s key; what `input` leaves out keeps its stored value. */
    async put(name: string, input: StoredInput): Promise<StoredSummary> {
      return read(await request('PUT', accountPathOf(name), input), storedSummarySchema);
    },
    /** What is stored of `name` (names and dates), or undefined when nothing is. */
    async get(name: string): Promise<StoredSummary | undefined> {
      const response = await request('GET', accountPathOf(name));
      if (response.status === 404) return undefined;
      return read(response, storedSummarySchema);
    },
    /** Removes `name`'s stored key; true when there was one. */
    async remove(name: string): Promise<boolean> {
      return (await read(await request('DELETE', accountPathOf(name)), removedSchema)).removed;
    },
    /** One page of the stored accounts' names (by name, after `after`, starting with `prefix`). */
    page,
    /** Every stored account's name and when it was written, read page by page. */
    async list(prefix?: string): Promise<{ name: string; updatedAt: number }[]> {
      const all: StoredList['accounts'] = [];
      let after: string | undefined;
      do {
        const answer = await page({ limit: LIST_PAGE_MAX, ...(prefix ? { prefix } : {}), ...(after ? { after } : {}) });
        all.push(...answer.accounts);
        after = answer.next;
      } while (after);
      return all;
    },
  };
};

export type StoreClient = ReturnType<typeof storeClient>;
