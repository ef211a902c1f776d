// The platform accounts whose webhooks deliver to this Worker, as `agent-functions generate` lists them
// from the accounts file (platform.accounts.json): each at its own path (eventsPathOf), its
// signing secret read with its own key, from the variables the accounts file names. No Worker
// types here: `agent-functions generate` writes these records.
import { DEFAULT_ACCOUNT } from '../keys.ts';
import { EVENTS_PATH, type KeyPlacement } from '../platform/protocol/contract.ts';

/** One account as the events endpoint needs it: names of variables, never their values. */
export interface EventsAccount {
  name: string;
  /** Where its webhook delivers (eventsPathOf in src/platform/protocol/contract.ts). */
  path: string;
  /** The Worker variable holding its API key; unset, the key is in the account store (src/accounts/). */
  apiKeyEnv?: string;
  /** Its base address, when the accounts file gives it (a white-label tenant)... */
  baseUrl?: string;
  /** ...else the Worker variable holding it (default PLATFORM_BASE_URL). */
  baseUrlEnv?: string;
  keyPlacement?: KeyPlacement;
}

/** Without an accounts file: one account at EVENTS_PATH, from PLATFORM_API_KEY and PLATFORM_BASE_URL. */
export const DEFAULT_EVENTS_ACCOUNTS: readonly EventsAccount[] = [
  { name: DEFAULT_ACCOUNT, path: EVENTS_PATH, apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
];

/** What the Worker needs to read an account's webhooks: its address and key, or the variables that are unset. */
export type AccountAccess =
  | { ok: true; baseUrl: string; apiKey: string; keyPlacement?: KeyPlacement }
  | { ok: false; missing: string[] };

/**
 * The account's address and key from the Worker's environment.
 * @example accessOf({ name: 'default', path: '/events', apiKeyEnv: 'PLATFORM_API_KEY' }, env)
 */
export const accessOf = (account: EventsAccount, env: object): AccountAccess => {
  const vars = env as unknown as Record<string, unknown>;
  const read = (name: string) => (typeof vars[name] === 'string' ? (vars[name] as string).trim() : '');
  const baseUrlEnv = account.baseUrlEnv ?? 'PLATFORM_BASE_URL';
  const baseUrl = account.baseUrl ?? read(baseUrlEnv);
  const apiKey = account.apiKeyEnv ? read(account.apiKeyEnv) : '';
  const keyOf =
    account.apiKeyEnv ?? `the stored key of account "${account.name}" (npm run accounts -- add ${account.name})`;
  const missing = [...(baseUrl ? [] : [baseUrlEnv]), ...(apiKey ? [] : [keyOf])];
  if (missing.length > 0) return { ok: false, missing };
  return { ok: true, baseUrl, apiKey, ...(account.keyPlacement ? { keyPlacement: account.keyPlacement } : {}) };
};
