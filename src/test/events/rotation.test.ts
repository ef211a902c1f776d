import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineEvent } from '../../events/define.ts';
import type { QueuedDelivery } from '../../events/delivery.ts';
import { PREVIOUS_SECRET_GRACE_MS, REFRESH_THROTTLE_MS, SECRET_CACHE_MS } from '../../events/secrets.ts';
import { delivery, eventsEnv, eventsPlatform, eventsWorker, forgetSigningSecrets } from './helpers.ts';

const worker = eventsWorker({
  'deal.moved': defineEvent({ type: 'deal.moved', payload: z.looseObject({}), handler: () => {} }),
});
const env = eventsEnv({ EVENTS_QUEUE: { send: async () => {} } as unknown as Queue<QueuedDelivery> });
let n = 0;
const event = () => ({ id: `evt_rot_${++n}`, type: 'deal.moved' });

describe('signing secret rotation', () => {
  let platform: ReturnType<typeof eventsPlatform>;
  let now = Date.now();
  beforeEach(() => {
    forgetSigningSecrets();
    platform = eventsPlatform();
    now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const status = async (secret: string) => (await worker.fetch(await delivery(event(), secret, now), env)).status;

  it('reads the secret from the platform once, then verifies from the cache', async () => {
    expect(await status('whsec_first')).toBe(202);
    expect(await status('whsec_first')).toBe(202);
    expect(platform.secretReads).toBe(1);
  });

  it('accepts the new secret as soon as the platform signs with it', async () => {
    expect(await status('whsec_first')).toBe(202);
    platform.rotate('whsec_second');
    now += REFRESH_THROTTLE_MS + 1;
    expect(await status('whsec_second')).toBe(202);
    expect(platform.secretReads).toBe(2);
  });

  it('keeps accepting the previous secret for a bounded time after the rotation, then refuses it', async () => {
    expect(await status('whsec_first')).toBe(202);
    platform.rotate('whsec_second');
    now += REFRESH_THROTTLE_MS + 1;
    expect(await status('whsec_second')).toBe(202);
    // A delivery signed just before the rotation, arriving just after it.
    expect(await status('whsec_first')).toBe(202);
    now += PREVIOUS_SECRET_GRACE_MS + 1;
    expect(await status('whsec_second')).toBe(202);
    // Just after a read, a signature no secret made may be a newer secret's: deliver again later.
    expect(await status('whsec_first')).toBe(503);
    now += REFRESH_THROTTLE_MS + 1;
    expect(await status('whsec_first')).toBe(401);
  });

  it('picks up a rotation by itself once the cache is old, with no delivery failing first', async () => {
    expect(await status('whsec_first')).toBe(202);
    platform.rotate('whsec_second');
    now += SECRET_CACHE_MS + 1;
    expect(await status('whsec_second')).toBe(202);
    expect(platform.secretReads).toBe(2);
  });

  it('asks the platform at most once per throttle window however many forged deliveries arrive', async () => {
    expect(await status('whsec_first')).toBe(202);
    now += REFRESH_THROTTLE_MS + 1;
    // The first forged delivery makes the Worker read the secrets again, so it knows it is forged;
    // while the refresh is throttled it cannot tell a forged one from a new secret, so it answers
    // retryably (never 202).
    expect(await status('whsec_forged_0')).toBe(401);
    for (let i = 1; i < 20; i++) expect(await status(`whsec_forged_${i}`)).toBe(503);
    expect(platform.secretReads).toBe(2);
  });

  it('grants no grace to a secret it never saw: after a leak, a fresh isolate refuses the old one at once', async () => {
    platform.rotate('whsec_after_leak');
    // A deploy (the leaked-secret runbook) starts fresh isolates: nothing cached, nothing previous.
    forgetSigningSecrets();
    expect(await status('whsec_first')).toBe(401);
    expect(await status('whsec_after_leak')).toBe(202);
  });
});
