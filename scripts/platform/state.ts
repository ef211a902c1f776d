// The emulator's in-memory world: seeded accounts, one per plan (or the ones a caller names), each
// with its own records and its own id sequence, so two accounts may hold the same ids
// (docs/platform-contract.md §10).

/** The spec's plans, plus an older one without API access (answers 403). */
export type AccountPlan = 'business' | 'agency' | 'agency_unlimited' | 'legacy';

export const PLANS: readonly AccountPlan[] = ['business', 'agency', 'agency_unlimited', 'legacy'];

/** Sub-accounts a plan includes (spec, Limits 2): Agency 10, Agency Unlimited no cap; others none (A). */
export const INCLUDED_SUB_ACCOUNTS: Record<AccountPlan, number> = {
  business: 0,
  agency: 10,
  agency_unlimited: Number.POSITIVE_INFINITY,
  legacy: 0,
};

export const PLAN_NAMES: Record<AccountPlan, string> = {
  business: 'Business',
  agency: 'Agency',
  agency_unlimited: 'Agency Unlimited',
  legacy: 'Legacy (no API access)',
};

/** Channels every seeded account has connected, unless configured otherwise. */
export const DEFAULT_CHANNELS: string[] = ['whatsapp', 'email', 'webchat'];

export interface ContactRecord {
  id: string;
  /** Creation order; the list's cursor. */
  seq: number;
  name: string;
  phone: string;
  channel: string;
  createdAt: string;
}

export interface MessageRecord {
  id: string;
  /** Creation order; the list's cursor and the activity's order. */
  seq: number;
  contactId: string;
  channel: string;
  text: string;
  direction: 'outbound' | 'inbound';
  status: string;
  createdAt: string;
}

export interface WebhookRecord {
  id: string;
  /** Creation order; the list's cursor. */
  seq: number;
  url: string;
  events: string[];
  /** Undefined after DELETE of the signing secret; deliveries are then skipped. */
  secret: string | undefined;
  secretCreatedAt: string | undefined;
  createdAt: string;
}

export interface CustomFunctionRecord {
  id: string;
  /** Creation order; the list's cursor, so deletions never shift a page. */
  seq: number;
  name: string;
  description: string;
  url: string;
  parameters: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export interface SubAccountRecord {
  id: string;
  name: string;
  adminEmail: string;
  /** Beyond the plan's included sub-accounts, so charged separately. */
  extra: boolean;
  createdAt: string;
}

/** What the emulator did on its own: played the agent (a call) or delivered an event. */
export type ActivityRecord = CallActivity | DeliveryActivity;

interface ActivityBase {
  /** The account's sequence: orders its activity and messages together. */
  seq: number;
  /** Start and end, in ms since the epoch (messages sent in between belong to it). */
  startedAt: number;
  endedAt: number;
}

/** The emulator called a registered function, as the agent would (`npm run platform -- call`). */
export interface CallActivity extends ActivityBase {
  kind: 'call';
  name: string;
  arguments: Record<string, unknown>;
  /** The contact of the conversation the call came from (docs/platform-contract.md §9). */
  contactId?: string;
  /** The Worker's X-Request-Id of its answer. */
  requestId?: string;
  /** The function's url, its key masked. */
  url: string;
  status: number | null;
  durationMs: number;
  /** What the function answered (the text the model reads), or why there was no answer. */
  body: string;
}

/** One event delivered to every subscribed webhook of the account, and what each answered. */
export interface DeliveryActivity extends ActivityBase {
  kind: 'delivery';
  type: string;
  /** The contact the event is about, when its data names one (data.contactId, data.message.contactId, ...). */
  contactId: string | undefined;
  /** For message.received: the customer's message that caused it. */
  messageId: string | undefined;
  /** The event's id, which the Worker's events endpoint keeps the delivery by. */
  eventId?: string;
  deliveries: Array<{
    webhookId: string;
    url?: string;
    status?: number | null;
    attempts?: number;
    delivered?: boolean;
    durationMs?: number;
    body?: string;
    skipped?: string;
  }>;
}

/** Activity kept per account, oldest first dropped. */
export const ACTIVITY_LIMIT = 500;

export interface AccountState {
  id: string;
  name: string;
  plan: AccountPlan;
  apiKey: string;
  channels: string[];
  /** Its own address under the emulator (a white-label tenant's), e.g. `/accounts/client-acme`; else none. */
  basePath: string | undefined;
  /** Next number of the account's id sequence: ids are unique within an account only. */
  nextSeq: number;
  contacts: Map<string, ContactRecord>;
  messages: Map<string, MessageRecord>;
  webhooks: Map<string, WebhookRecord>;
  functions: Map<string, CustomFunctionRecord>;
  subAccounts: Map<string, SubAccountRecord>;
  /** The emulator's own calls and deliveries, for the dev console (GET /_emulator/activity). */
  activity: ActivityRecord[];
}

/** What a caller may set of one seeded account. */
export interface AccountOptions {
  plan: AccountPlan;
  apiKey?: string;
  name?: string;
  channels?: string[];
  /** Serves the account at its own address too: `{emulator url}{basePath}/v1/...` (accountPath). */
  basePath?: string;
}

/** A seeded account as `startEmulator` reports it. */
export interface SeededAccount {
  id: string;
  name: string;
  plan: AccountPlan;
  apiKey: string;
  channels: string[];
  /** Its own address under the emulator, when it has one: its base url is the emulator's url plus this. */
  basePath?: string;
}

/**
 * The own address of account `name` under the emulator (a white-label tenant's, locally), for
 * AccountOptions.basePath; a name of the accounts file (ACCOUNT_NAME) is a safe path segment.
 * @example accountPath('client-acme') // '/accounts/client-acme'
 */
export const accountPath = (name: string): string => `/accounts/${name}`;

/**
 * The account `npm run dev` registers every function on, seeds through dev.config.ts and gives the
 * Worker (scripts/dev/platform.ts); `npm run platform -- call|inbound|emit` use it by default.
 */
export const DEV_ACCOUNT: AccountPlan = 'agency';

/** The well-known key of a plan's seeded account: local only, shown at start, never a real key. */
export const defaultKey = (plan: AccountPlan): string => `local-${plan.replaceAll('_', '-')}-key`;

export interface EmulatorState {
  accounts: AccountState[];
}

/** Two accounts the emulator could not tell apart: the same key, or the same own address. */
const clash = (accounts: AccountOptions[]): string | undefined => {
  const keys = accounts.map((options) => options.apiKey ?? defaultKey(options.plan));
  const paths = accounts.flatMap((options) => (options.basePath ? [options.basePath] : []));
  if (new Set(keys).size < keys.length)
    return 'Two accounts of the local platform have the same API key: give each its own.';
  if (new Set(paths).size < paths.length)
    return 'Two accounts of the local platform have the same own address (basePath).';
  return undefined;
};

export const createState = (accounts: AccountOptions[] = PLANS.map((plan) => ({ plan }))): EmulatorState => {
  const problem = clash(accounts);
  if (problem) throw new Error(problem);
  return createAccounts(accounts);
};

const accountOf = (options: AccountOptions, index: number): AccountState => ({
  id: `acct_${index + 1}`,
  name: options.name ?? `${PLAN_NAMES[options.plan]} account`,
  plan: options.plan,
  apiKey: options.apiKey ?? defaultKey(options.plan),
  channels: [...(options.channels ?? DEFAULT_CHANNELS)],
  basePath: options.basePath,
  nextSeq: 1,
  contacts: new Map(),
  messages: new Map(),
  webhooks: new Map(),
  functions: new Map(),
  subAccounts: new Map(),
  activity: [],
});

const createAccounts = (accounts: AccountOptions[]): EmulatorState => ({ accounts: accounts.map(accountOf) });

/**
 * Adds an account to a running state (`npm run dev` when platform.accounts.json gains one); refused
 * when its key or own address is another account's.
 * @example addAccountTo(state, { plan: 'business', name: 'client-x', apiKey: 'local-client-x-account-key' })
 */
export const addAccountTo = (state: EmulatorState, options: AccountOptions): AccountState => {
  const taken = state.accounts.map(
    ({ plan, apiKey, basePath }): AccountOptions => ({
      plan,
      apiKey,
      ...(basePath ? { basePath } : {}),
    }),
  );
  const problem = clash([...taken, options]);
  if (problem) throw new Error(problem);
  const account = accountOf(options, state.accounts.length);
  state.accounts.push(account);
  return account;
};

/**
 * A fresh identifier of the account with a readable prefix (`cf_000007`) and its sequence number;
 * another account may hold the same id, as on the platform (ids are unique within an account).
 */
export const nextId = (account: AccountState, prefix: string): { id: string; seq: number } => {
  const seq = account.nextSeq++;
  return { id: `${prefix}_${String(seq).padStart(6, '0')}`, seq };
};

/** Keeps `record` in the account's activity, dropping the oldest past ACTIVITY_LIMIT. */
export const recordActivity = (account: AccountState, record: ActivityRecord): void => {
  account.activity.push(record);
  if (account.activity.length > ACTIVITY_LIMIT) account.activity.splice(0, account.activity.length - ACTIVITY_LIMIT);
};

/** A new webhook signing secret. */
export const mintSecret = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const base64 = btoa(String.fromCharCode(...bytes));
  return `whsec_${base64.replaceAll('+', '-').replaceAll('/', '_')}`;
};
