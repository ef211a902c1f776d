// The signing secrets a delivery may be signed with, read from the platform with the API key of the
// account whose path it came to, as the Worker's account resolver gives it (a variable or the
// account store): GET /v1/webhooks, then the signing-secret of the webhook whose url is that path,
// cached in the isolate. Nothing to copy by hand: `npm run dev` and production
// work alike, and a rotation reaches the Worker by itself (docs/events.md).
//
// What the platform answers decides what is kept (docs/platform-contract.md §7):
// - it holds no secret (the secret or the webhook was deleted): the cache is dropped at once, and
//   deliveries are refused (SecretsRevoked);
// - it refuses the key: the cache is dropped at once, and deliveries get a retryable answer until
//   the key works again (SecretsUnavailable): nothing can be verified;
// - it cannot be reached: a secret read before keeps verifying, logged, for UNREACHABLE_GRACE_MS
//   after the last good read at most.
import type { AccessibleAccount } from '../accounts/access.ts';
import type { Logger } from '../log.ts';
import { createPlatformClient } from '../platform/client/client.ts';
import { AuthenticationError, NotFoundError, PlanError } from '../platform/client/errors.ts';
import { normalizeOrigin } from '../url.ts';

/** How long fetched secrets are used before asking the platform again. */
export const SECRET_CACHE_MS: number = 5 * 60_000;
/** The least time between two look-ups, so forged deliveries cannot make the Worker hammer the platform. */
export const REFRESH_THROTTLE_MS = 30_000;
/** How long a secret the platform no longer shows keeps verifying after a rotation was seen. */
export const PREVIOUS_SECRET_GRACE_MS: number = 10 * 60_000;
/** How long after its last good read a known secret keeps verifying while the platform cannot be reached. */
export const UNREACHABLE_GRACE_MS: number = 15 * 60_000;
/**
 * Accounts and events urls remembered at once; the oldest is forgotten first. Enough for an agency's
 * busy clients (each entry a few hundred bytes), bounded whatever urls deliveries name.
 */
export const SECRET_ENTRIES_MAX = 1024;

/** The secrets cannot be read (not configured, the key refused, the platform unreachable): nothing can be verified now. */
export class SecretsUnavailable extends Error {
  override name = 'SecretsUnavailable';
}

/** The platform answered that the webhook has no signing secret (it, or the webhook, was deleted). */
export class SecretsRevoked extends Error {
  override name = 'SecretsRevoked';
}

interface Cached {
  current: string[];
  previous: Array<{ secret: string; until: number }>;
  fetchedAt: number;
}

const cache = new Map<string, Cached>();
const lastLookUp = new Map<string, number>();
const inFlight = new Map<string, Promise<Cached>>();

/** Sets `key` as the newest entry of `map`, forgetting the oldest beyond SECRET_ENTRIES_MAX. */
const remember = <T>(map: Map<string, T>, key: string, value: T): void => {
  map.delete(key);
  map.set(key, value);
  while (map.size > SECRET_ENTRIES_MAX) map.delete(map.keys().next().value as string);
};

const forget = (key: string): void => {
  cache.delete(key);
};

/** Forgets every cached secret (tests). */
export const forgetSigningSecrets = (): void => {
  cache.clear();
  lastLookUp.clear();
  inFlight.clear();
};

/** How many accounts' secrets the isolate holds (tests). */
export const secretCacheEntries = (): number => Math.max(cache.size, lastLookUp.size);

const usable = (entry: Cached, now: number): string[] => [
  ...entry.current,
  ...entry.previous.filter((p) => p.until > now).map((p) => p.secret),
];

const lookUp = async (
  { account, access }: AccessibleAccount,
  eventsUrl: string,
  before: Cached | undefined,
): Promise<Cached> => {
  if (!access.ok) {
    throw new SecretsUnavailable(
      `${access.missing.join(' and ')} must be set to read the signing secret of account "${account.name}"`,
    );
  }
  const platform = createPlatformClient({
    baseUrl: access.baseUrl,
    apiKey: access.apiKey,
    ...(access.keyPlacement ? { keyPlacement: access.keyPlacement } : {}),
    timeoutMs: 5_000,
    retry: { retries: 1, maxRetryAfterMs: 2_000 },
  });
  let current: string[];
  try {
    const ours = (await platform.webhooks.list()).filter((webhook) => normalizeOrigin(webhook.url) === eventsUrl);
    if (ours.length === 0) throw new SecretsRevoked(`no webhook is registered for ${eventsUrl}`);
    const found = await Promise.all(
      ours.map((webhook) =>
        platform.webhooks.signingSecret.get(webhook.id).catch((error: unknown) => {
          // This webhook has no secret (deleted): it verifies nothing, the others still may.
          if (error instanceof NotFoundError) return { secret: '' };
          throw error;
        }),
      ),
    );
    current = found.map((answer) => answer.secret).filter(Boolean);
    if (current.length === 0) throw new SecretsRevoked(`the webhook for ${eventsUrl} has no signing secret`);
  } catch (error) {
    if (error instanceof SecretsRevoked) throw error;
    if (error instanceof AuthenticationError || error instanceof PlanError) {
      throw new SecretsRefused(`the platform refused the key of account "${account.name}" (${error.status})`);
    }
    throw new SecretsUnreachable(`the platform did not give the signing secret (${(error as Error).name})`);
  }
  const now = Date.now();
  const retired = (before?.current ?? [])
    .filter((secret) => !current.includes(secret))
    .map((secret) => ({ secret, until: now + PREVIOUS_SECRET_GRACE_MS }));
  const previous = [
    ...(before?.previous ?? []).filter((p) => p.until > now && !current.includes(p.secret)),
    ...retired,
  ];
  return { current, previous, fetchedAt: now };
};

/** The platform refused the account's key: what was known is dropped, and nothing can be verified. */
class SecretsRefused extends SecretsUnavailable {
  override name = 'SecretsRefused';
}

/** The platform could not be reached: what was known may still verify, for a bounded time. */
class SecretsUnreachable extends SecretsUnavailable {
  override name = 'SecretsUnreachable';
}

/** The secrets to verify with, and whether they were read from the platform just now. */
export interface SigningSecrets {
  secrets: string[];
  /** True when the platform was asked for this answer: a signature none of them made is certainly bad. */
  fresh: boolean;
}

/**
 * The secrets to verify a delivery to `account`'s `eventsUrl` with: cached, or read again when the
 * cache is old or `refresh` asks (a signature that matched none of them), at most once per
 * REFRESH_THROTTLE_MS; a delivery that comes while a read is under way waits for it. Throws
 * SecretsRevoked when the platform holds no secret, SecretsUnavailable when none can be known.
 * @example const { secrets } = await signingSecrets(resolved, 'https://fns.example.dev/events', { log })
 */
export const signingSecrets = async (
  resolved: AccessibleAccount,
  eventsUrl: string,
  options: { refresh?: boolean; log?: Logger } = {},
): Promise<SigningSecrets> => {
  const { account, access } = resolved;
  const key = `${account.name} ${access.ok ? access.baseUrl : ''} ${eventsUrl}`;
  const now = Date.now();
  const entry = cache.get(key);
  const due = !entry || now - entry.fetchedAt > SECRET_CACHE_MS || options.refresh;
  if (!due) return { secrets: usable(entry, now), fresh: false };
  // A known secret outlives a platform that cannot be reached only this long after its last good read.
  const stillKnown = (at: number) => entry && at - entry.fetchedAt <= SECRET_CACHE_MS + UNREACHABLE_GRACE_MS;
  let pending = inFlight.get(key);
  if (!pending) {
    if (now - (lastLookUp.get(key) ?? Number.NEGATIVE_INFINITY) < REFRESH_THROTTLE_MS) {
      if (entry && stillKnown(now)) return { secrets: usable(entry, now), fresh: false };
      forget(key);
      throw new SecretsUnavailable('the last look-up of the signing secret failed moments ago');
    }
    remember(lastLookUp, key, now);
    pending = lookUp(resolved, eventsUrl, entry).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  try {
    const fresh = await pending;
    remember(cache, key, fresh);
    return { secrets: usable(fresh, Date.now()), fresh: true };
  } catch (error) {
    const at = Date.now();
    if (error instanceof SecretsRevoked) {
      forget(key);
      options.log?.warn('signing_secret_revoked', { account: account.name, reason: error.message });
      throw error;
    }
    if (error instanceof SecretsRefused) {
      forget(key);
      options.log?.error('signing_secret_refused', { account: account.name, reason: error.message });
      throw error;
    }
    if (error instanceof SecretsUnreachable && entry && stillKnown(at)) {
      options.log?.warn('signing_secret_stale', {
        account: account.name,
        reason: error.message,
        ageMs: at - entry.fetchedAt,
      });
      return { secrets: usable(entry, at), fresh: false };
    }
    forget(key);
    throw error;
  }
};
