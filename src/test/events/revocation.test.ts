// A signing secret the platform no longer holds stops verifying as soon as the Worker learns so;
// one it cannot read (the platform unreachable) keeps verifying only for a bounded time; a cold
// isolate waits for its first look-up; and a refresh that was throttled never turns a genuine
// new-secret delivery into a 401 (docs/platform-contract.md §7).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { AccessibleAccount } from '../../accounts/access.ts';
import { defineEvent } from '../../events/define.ts';
import type { QueuedDelivery } from '../../events/delivery.ts';
import {
  REFRESH_THROTTLE_MS,
  SECRET_CACHE_MS,
  SECRET_ENTRIES_MAX,
  secretCacheEntries,
  signingSecrets,
  UNREACHABLE_GRACE_MS,
} from '../../events/secrets.ts';
import { setLogSink } from '../../log.ts';
import { delivery, eventsEnv, eventsPlatform, eventsWorker, forgetSigningSecrets } from './helpers.ts';

const worker = eventsWorker({
  'deal.moved': defineEvent({ type: 'deal.moved', payload: z.looseObject({}), handler: () => {} }),
});
/** What the endpoint put on the queue: only a delivery queued can reach a handler. */
const queued: QueuedDelivery[] = [];
const env = eventsEnv({
  EVENTS_QUEUE: {
    send: async (message: QueuedDelivery) => void queued.push(message),
  } as unknown as Queue<QueuedDelivery>,
});
let n = 0;
const event = () => ({ id: `evt_rev_${++n}`, type: 'deal.moved' });

describe('a revoked or unreadable signing secret', () => {
  let platform: ReturnType<typeof eventsPlatform>;
  let now = Date.now();
  let logged: Array<{ event: string; level: string }>;
  let restoreSink: () => void;
  beforeEach(() => {
    forgetSigningSecrets();
    platform = eventsPlatform();
    now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    queued.length = 0;
    logged = [];
    const previous = setLogSink((line) => logged.push(JSON.parse(line) as { event: string; level: string }));
    restoreSink = () => setLogSink(previous);
  });
  afterEach(() => {
    restoreSink();
    platform.outbound.restore();
    vi.restoreAllMocks();
  });

  const send = (secret: string, at = now) =>
    delivery(event(), secret, at).then((request) => worker.fetch(request, env));
  const status = async (secret: string) => (await send(secret)).status;

  it('stops accepting a secret the platform deleted as soon as it reads again, and says so in the log', async () => {
    expect(await status('whsec_first')).toBe(202);
    platform.deleteSecret();
    now += SECRET_CACHE_MS + 1;
    const response = await send('whsec_first');
    expect(response.status).toBe(401);
    expect(queued).toHaveLength(1);
    expect(logged.map((line) => line.event)).toContain('signing_secret_revoked');
    // Eleven minutes on, still refused: nothing of the old secret was kept.
    now += 11 * 60_000;
    expect(await status('whsec_first')).toBe(401);
    expect(queued).toHaveLength(1);
  });

  it('stops accepting the secret of a webhook the platform deleted', async () => {
    expect(await status('whsec_first')).toBe(202);
    platform.deleteWebhook();
    now += SECRET_CACHE_MS + 1;
    expect(await status('whsec_first')).toBe(401);
    expect(queued).toHaveLength(1);
    expect(logged.map((line) => line.event)).toContain('signing_secret_revoked');
  });

  it('drops the cached secret when the platform refuses the key, and answers retryably while it cannot tell', async () => {
    expect(await status('whsec_first')).toBe(202);
    platform.fail(401);
    now += SECRET_CACHE_MS + 1;
    const response = await send('whsec_first');
    expect(response.status).toBe(503);
    expect(queued).toHaveLength(1);
    expect(logged.find((line) => line.event === 'signing_secret_refused')?.level).toBe('error');
    // The key refused is not "unreachable": no grace for the old secret.
    now += REFRESH_THROTTLE_MS + 1;
    expect(await status('whsec_first')).toBe(503);
    expect(queued).toHaveLength(1);
  });

  it('keeps a known secret while the platform is unreachable, for a bounded time only, and logs that it does', async () => {
    expect(await status('whsec_first')).toBe(202);
    platform.fail(503);
    now += SECRET_CACHE_MS + 1;
    expect(await status('whsec_first')).toBe(202);
    expect(logged.find((line) => line.event === 'signing_secret_stale')?.level).toBe('warn');
    now += UNREACHABLE_GRACE_MS;
    expect(await status('whsec_first')).toBe(503);
    expect(queued).toHaveLength(2);
    platform.fail(undefined);
    now += REFRESH_THROTTLE_MS + 1;
    expect(await status('whsec_first')).toBe(202);
  });

  it('makes the deliveries that reach a cold isolate during its first look-up wait for it, none refused', async () => {
    platform.slow(50);
    const answers = await Promise.all(Array.from({ length: 12 }, () => status('whsec_first')));
    expect(answers).toEqual(Array(12).fill(202));
    expect(platform.secretReads).toBe(1);
  });

  it('answers a genuine delivery under a new secret retryably, not 401, when a forged one just spent the refresh', async () => {
    expect(await status('whsec_first')).toBe(202);
    now += REFRESH_THROTTLE_MS + 1;
    // A forged delivery makes the Worker read the secrets again...
    expect(await status('whsec_forged')).toBe(401);
    // ...then the platform rotates, and its first delivery under the new secret comes within the throttle.
    platform.rotate('whsec_second');
    const genuine = await send('whsec_second');
    expect(genuine.status).toBe(503);
    expect(genuine.headers.get('retry-after')).toBeTruthy();
    now += REFRESH_THROTTLE_MS + 1;
    expect(await status('whsec_second')).toBe(202);
  });

  it('keeps its memory of secrets bounded whatever origins the deliveries name', async () => {
    const local = eventsEnv({ FUNCTIONS_BASE_URL: '', EVENTS_QUEUE: env.EVENTS_QUEUE });
    for (let i = 0; i < 20; i++) {
      const request = await delivery(event(), 'whsec_first');
      const url = new URL(request.url);
      url.host = `host-${i}.example.com`;
      await worker.fetch(new Request(url, request), local);
    }
    expect(secretCacheEntries()).toBe(20);
    // Past the bound, the oldest go: one look-up per url named, none of them remembered for ever.
    const unconfigured: AccessibleAccount = {
      account: { name: 'default', settings: {}, secret: () => undefined },
      platform: undefined,
      access: { ok: false, missing: ['PLATFORM_API_KEY'] },
    };
    for (let i = 0; i < SECRET_ENTRIES_MAX + 20; i++) {
      await signingSecrets(unconfigured, `https://other-${i}.example.com/events`).catch(() => undefined);
    }
    expect(secretCacheEntries()).toBe(SECRET_ENTRIES_MAX);
  });
});
