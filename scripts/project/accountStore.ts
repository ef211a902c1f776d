// The Worker's account store as the CLI reaches it (src/accounts/admin.ts): PUT, GET, DELETE
// /accounts/<name> and GET /accounts at FUNCTIONS_BASE_URL, authorised with accountsKey(FUNCTIONS_SECRET).
// It answers names and dates, never a key; every failure becomes one sentence saying what to do.
import { accountsKey } from 'agent-functions/worker';

/** What the store answers of one account. */
export interface StoredSummary {
  name: string;
  stored: true;
  updatedAt: number;
  baseUrl?: string;
  secretNames: string[];
}

/** What the store keeps for one account; fields left out keep their stored value, `secrets` merge (null removes one). */
export interface StoredInput {
  apiKey?: string;
  baseUrl?: string;
  keyPlacement?: 'header' | 'bearer' | 'query';
  secrets?: Record<string, string | null>;
}

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
    if (response.ok || (response.status === 404 && method === 'GET' && path !== '/accounts')) return response;
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
  return {
    /** Stores (or replaces) `name`'s key; what `input` leaves out keeps its stored value. */
    async put(name: string, input: StoredInput): Promise<StoredSummary> {
      return (await (await request('PUT', `/accounts/${encodeURIComponent(name)}`, input)).json()) as StoredSummary;
    },
    /** What is stored of `name` (names and dates), or undefined when nothing is. */
    async get(name: string): Promise<StoredSummary | undefined> {
      const response = await request('GET', `/accounts/${encodeURIComponent(name)}`);
      if (response.status === 404) return undefined;
      return (await response.json()) as StoredSummary;
    },
    /** Removes `name`'s stored key; true when there was one. */
    async remove(name: string): Promise<boolean> {
      return ((await (await request('DELETE', `/accounts/${encodeURIComponent(name)}`)).json()) as { removed: boolean })
        .removed;
    },
    /** Every stored account's name and when it was written. */
    async list(): Promise<{ name: string; updatedAt: number }[]> {
      return ((await (await request('GET', '/accounts')).json()) as { accounts: { name: string; updatedAt: number }[] })
        .accounts;
    },
  };
};

export type StoreClient = ReturnType<typeof storeClient>;
