// The signing secrets a delivery may be signed with, read from the platform with the API key of the
// account whose path it came to (GET /v1/webhooks, then the signing-secret of the webhook whose url
// is that path) and cached in the isolate. Nothing to copy by hand: `npm run dev` and production work alike, and a
// rotation reaches the Worker by itself (docs/events.md).
import type { Env } from '../env.ts';
import { createPlatformClient } from '../platform/client/client.ts';
import { normalizeOrigin } from '../url.ts';
import { accessOf, type EventsAccount } from './accounts.ts';

/** How long fetched secrets are used before asking the platform again. */
export const SECRET_CACHE_MS: number = 5 * 60_000;
/** The least time between two look-ups, so forged deliveries cannot make the Worker hammer the platform. */
export const REFRESH_THROTTLE_MS = 30_000;
/** How long a secret the platform no longer shows keeps verifying after a rotation was seen. */
export const PREVIOUS_SECRET_GRACE_MS: number = 10 * 60_000;

/** The secrets could not be read: not configured, no webhook registered, or the platform unreachable. */
export class SecretsUnavailable extends Error {
  override name = 'SecretsUnavailable';
}

interface Cached {
  current: string[];
  previous: Array<{ secret: string; until: number }>;
  fetchedAt: number;
}

const cache = new Map<string, Cached>();
const lastLookUp = new Map<string, number>();
const inFlight = new Map<string, Promise<Cached>>();

/** Forgets every cached secret (tests). */
export const forgetSigningSecrets = (): void => {
  cache.clear();
  lastLookUp.clear();
  inFlight.clear();
};

const usable = (entry: Cached, now: number): string[] => [
  ...entry.current,
  ...entry.previous.filter((p) => p.until > now).map((p) => p.secret),
];

const lookUp = async (
  env: Env,
  account: EventsAccount,
  eventsUrl: string,
  before: Cached | undefined,
): Promise<Cached> => {
  const access = accessOf(account, env);
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
    if (ours.length === 0) throw new SecretsUnavailable(`no webhook is registered for ${eventsUrl}: run npm run sync`);
    current = (await Promise.all(ours.map((webhook) => platform.webhooks.signingSecret.get(webhook.id))))
      .map((found) => found.secret)
      .filter(Boolean);
  } catch (error) {
    if (error instanceof SecretsUnavailable) throw error;
    throw new SecretsUnavailable(`the platform did not give the signing secret (${(error as Error).name})`);
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

/**
 * The secrets to verify a delivery to `account`'s `eventsUrl` with: cached, or read again when the
 * cache is old or `refresh` asks (a signature that matched none of them), at most once per
 * REFRESH_THROTTLE_MS.
 * @example for (const secret of await signingSecrets(env, account, 'https://fns.example.dev/events')) ...
 */
export const signingSecrets = async (
  env: Env,
  account: EventsAccount,
  eventsUrl: string,
  options: { refresh?: boolean } = {},
): Promise<string[]> => {
  const access = accessOf(account, env);
  const key = `${account.name} ${access.ok ? access.baseUrl : ''} ${eventsUrl}`;
  const now = Date.now();
  const entry = cache.get(key);
  const stale = !entry || now - entry.fetchedAt > SECRET_CACHE_MS || options.refresh;
  if (!stale) return usable(entry, now);
  if (now - (lastLookUp.get(key) ?? 0) < REFRESH_THROTTLE_MS) {
    if (entry) return usable(entry, now);
    throw new SecretsUnavailable('the last look-up of the signing secret failed moments ago');
  }
  let pending = inFlight.get(key);
  if (!pending) {
    lastLookUp.set(key, now);
    pending = lookUp(env, account, eventsUrl, entry).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  try {
    const fresh = await pending;
    cache.set(key, fresh);
    return usable(fresh, Date.now());
  } catch (error) {
    // The platform is unreachable: what was known still verifies; with nothing known, nothing can.
    if (entry) return usable(entry, now);
    throw error;
  }
};
