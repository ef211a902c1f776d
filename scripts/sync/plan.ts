// The plan: what to create, update, delete or leave alone so an account holds exactly the
// desired functions. Pure data in, data out; applying it is apply.ts.

import type { FunctionRecord, RemoteFunction } from 'agent-functions/platform';
import { eventsPathPattern } from 'agent-functions/platform';
import { ACCOUNT_QUERY, normalizeOrigin } from 'agent-functions/worker';

/** A registered field that can differ. */
export type Field = 'description' | 'parameters' | 'url';

/** One differing field, before (on the platform) and after (from the code). */
export interface FieldChange {
  field: Field;
  before: unknown;
  after: unknown;
}

/** One step of a plan. `orphan`: ours, gone from functions/, kept because --prune was not given. */
export type PlanEntry =
  | { action: 'create'; name: string; desired: FunctionRecord }
  | {
      action: 'update';
      name: string;
      id: string;
      changes: FieldChange[];
      desired: FunctionRecord;
      /** The previous origin (--adopt) this registration is moved from. */
      adoptedFrom?: string;
    }
  | { action: 'delete'; name: string; id: string; reason: 'removed' | 'duplicate' }
  | { action: 'unchanged'; name: string; id: string }
  | { action: 'orphan'; name: string; id: string }
  | { action: 'conflict'; name: string; id: string; url: string };

export type Action = PlanEntry['action'];

/** A plan entry that writes to the platform. */
export type WriteEntry = Extract<PlanEntry, { action: 'create' | 'update' | 'delete' }>;

/**
 * The account a registered url names (`?account=<name>`, docs/platform-contract.md §10), or
 * undefined for the section-4 form, which names none (the first account's, and every account's
 * before accounts were told apart).
 * @example urlAccount('https://a.dev/functions/x?account=client-acme&key=k') // 'client-acme'
 */
export const urlAccount = (url: string): string | undefined =>
  URL.canParse(url) ? (new URL(url).searchParams.get(ACCOUNT_QUERY) ?? undefined) : undefined;

/**
 * Whether a url of ours may be kept, updated or pruned by the run of `account`: one that names
 * no account (the section-4 form, upgraded in place to the account's own) or names this one.
 * A url naming another account is that account's, never touched here (docs/platform-contract.md §10).
 * @example belongsToAccount('https://a.dev/functions/x?account=b&key=k', 'a') // false
 */
export const belongsToAccount = (url: string, account: string | undefined): boolean => {
  const named = urlAccount(url);
  return named === undefined || named === account;
};

/** Whether a plan entry writes. */
export const isWrite = (entry: PlanEntry): entry is WriteEntry =>
  entry.action === 'create' || entry.action === 'update' || entry.action === 'delete';

/** Actions that write to the platform. */
export const WRITES: readonly Action[] = ['create', 'update', 'delete'];

export interface Plan {
  entries: PlanEntry[];
  counts: Record<Action, number>;
  /** Remote functions this project does not own and that clash with no local name: never touched. */
  foreign: number;
}

/**
 * Paths under FUNCTIONS_BASE_URL that this project registers (docs/platform-contract.md §5): a function's
 * own path and nothing else. A url elsewhere under the same origin (another team's webhook, a path
 * with `..`) is not ours, so --prune never deletes it. The events endpoints (eventsPathPattern:
 * /events and /events/<account>) are ours as webhook urls: sync plans the webhooks with this same
 * code (webhook.ts).
 */
export const OWNED_PATHS: readonly RegExp[] = [/^\/functions\/[a-z][a-z0-9_]{0,63}$/, eventsPathPattern()];

/**
 * Whether a remote url belongs to this project: the Worker's origin, then one of OWNED_PATHS, then
 * at most a query (so neither `https://a.dev.evil.com/...` nor `https://a.dev/other-team/x` is ours).
 * @example isOwnedUrl('https://a.dev/functions/x?key=k', 'https://a.dev/') // true
 */
export const isOwnedUrl = (url: string, origin: string): boolean => {
  const base = normalizeOrigin(origin);
  if (!base || !url.startsWith(`${base}/`)) return false;
  const path = url.slice(base.length).split(/[?#]/)[0] ?? '';
  return OWNED_PATHS.some((pattern) => pattern.test(path));
};

// Order-insensitive, so a platform that reorders keys does not cause an update on every run.
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/** The fields of `remote` that differ from `desired`. */
export const diffFields = (desired: FunctionRecord, remote: RemoteFunction): FieldChange[] => {
  const changes: FieldChange[] = [];
  if (remote.description !== desired.description) {
    changes.push({ field: 'description', before: remote.description, after: desired.description });
  }
  if (canonical(remote.parameters ?? {}) !== canonical(desired.parameters)) {
    changes.push({ field: 'parameters', before: remote.parameters, after: desired.parameters });
  }
  if (remote.url !== desired.url) changes.push({ field: 'url', before: remote.url, after: desired.url });
  return changes;
};

const byId = (a: RemoteFunction, b: RemoteFunction) => a.id.localeCompare(b.id);

/**
 * The steps that make the account hold `desired` and nothing else of ours (deletions only with prune).
 * `scope` limits which remote names the run may touch (`--only`); undefined means all.
 * @example planSync({ desired, remote, origin: 'https://fns.example.dev', prune: false }).counts.create
 */
export const planSync = (input: {
  desired: FunctionRecord[];
  remote: RemoteFunction[];
  origin: string;
  prune: boolean;
  scope?: ReadonlySet<string>;
  /** Previous origins of this project: their registrations are ours, to be moved to `origin`. */
  adopt?: readonly string[];
  /**
   * The account planned: urls naming another account are not ours here (belongsToAccount).
   * Undefined: only urls that name no account are ours.
   */
  account?: string;
}): Plan => {
  const { desired, origin, prune, scope } = input;
  const remote = input.remote.filter((fn) => !scope || scope.has(fn.name));
  const owned = new Map<string, RemoteFunction[]>();
  const foreign = new Map<string, RemoteFunction>();
  const adoptedFrom = new Map<RemoteFunction, string>();
  // Records already at the current origin first, so a half-finished move keeps the moved one.
  const current = (fn: RemoteFunction) => (isOwnedUrl(fn.url, origin) ? 0 : 1);
  const mine = (fn: RemoteFunction) => belongsToAccount(fn.url, input.account);
  for (const fn of remote.toSorted((a, b) => current(a) - current(b) || byId(a, b))) {
    if (!mine(fn)) {
      // Another account's url (the same platform account listed twice): a name clash, never ours.
      if (!foreign.has(fn.name)) foreign.set(fn.name, fn);
      continue;
    }
    const previous = current(fn) === 0 ? undefined : input.adopt?.find((old) => isOwnedUrl(fn.url, old));
    if (previous) adoptedFrom.set(fn, normalizeOrigin(previous));
    if (current(fn) === 0 || previous) owned.set(fn.name, [...(owned.get(fn.name) ?? []), fn]);
    else if (!foreign.has(fn.name)) foreign.set(fn.name, fn);
  }
  const entries: PlanEntry[] = [];
  const wanted = new Set<string>();
  for (const fn of desired) {
    wanted.add(fn.name);
    const [record, ...duplicates] = owned.get(fn.name) ?? [];
    if (record) {
      const changes = diffFields(fn, record);
      const from = adoptedFrom.get(record);
      entries.push(
        changes.length > 0
          ? {
              action: 'update',
              name: fn.name,
              id: record.id,
              changes,
              desired: fn,
              ...(from ? { adoptedFrom: from } : {}),
            }
          : { action: 'unchanged', name: fn.name, id: record.id },
      );
      // Two records of ours under one name can only come from an earlier fault; keep the oldest.
      if (prune)
        for (const extra of duplicates)
          entries.push({ action: 'delete', name: fn.name, id: extra.id, reason: 'duplicate' });
    } else {
      const clash = foreign.get(fn.name);
      entries.push(
        clash
          ? { action: 'conflict', name: fn.name, id: clash.id, url: clash.url }
          : { action: 'create', name: fn.name, desired: fn },
      );
    }
  }
  for (const [name, records] of owned) {
    if (wanted.has(name)) continue;
    for (const fn of records) {
      entries.push(
        prune ? { action: 'delete', name, id: fn.id, reason: 'removed' } : { action: 'orphan', name, id: fn.id },
      );
    }
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0, orphan: 0, conflict: 0 };
  for (const entry of entries) counts[entry.action]++;
  const foreignCount = [...foreign.keys()].filter((name) => !wanted.has(name)).length;
  return { entries, counts, foreign: foreignCount };
};

/** Whether applying the plan would write anything. */
export const hasChanges = (plan: Plan): boolean => plan.entries.some((entry) => WRITES.includes(entry.action));
