// Part 1c: how long a signed event delivery takes to be acknowledged (202 once queued), against a
// function call on the same Worker, side by side (interleave.ts). The Worker reads its webhook's
// signing secret from the local platform emulator (as it reads it from the platform in production)
// once, then from its cache; the queue is Miniflare's, with no consumer, so only the
// acknowledgement is timed.

import { createPlatformClient, EVENTS_PATH } from 'agent-functions/platform';
import { functionKey } from 'agent-functions/worker';
import { startEmulator } from '../../scripts/platform/emulator.ts';
import { BENCH_EVENT_TYPE, EVENT_BODY } from '../workers/event.ts';
import { QUOTE_FUNCTION } from '../workers/quote.ts';
import type { BuiltWorker } from './buildWorker.ts';
import { interleavedLoad, type LoadSettings } from './interleave.ts';
import { signatureHeaders, VALID_BODY } from './invocation.ts';
import type { LoadResult } from './loadTest.ts';
import { BENCH_SECRET, serveWorker } from './serveWorker.ts';

/** The origin the Worker believes it serves; the webhook is registered under it. */
const BENCH_ORIGIN = 'https://bench.example';

/** Every round of both cases. */
export interface EventAckRounds {
  delivery: LoadResult[];
  call: LoadResult[];
}

/**
 * Serves `built` (bench/workers/projectWithEvents.ts) against a local platform holding its webhook and runs
 * deliveries and function calls side by side after a warm-up (interleave.ts).
 * @example await measureEventAck(built.projectWithEvents10, { rounds: 4, seconds: 2, connections: 10, warmupSeconds: 1 })
 */
export const measureEventAck = async (
  built: BuiltWorker,
  options: LoadSettings,
  progress: (line: string) => void = () => {},
): Promise<EventAckRounds> => {
  const platform = await startEmulator({ port: 0, rateLimit: false });
  try {
    const account = platform.accounts[0];
    if (!account) throw new Error('the local platform has no account');
    // Registered and read as sync and the Worker do: through the project's platform client.
    const client = createPlatformClient({ baseUrl: platform.url, apiKey: account.apiKey });
    const webhook = await client.webhooks.create({ url: `${BENCH_ORIGIN}${EVENTS_PATH}`, events: [BENCH_EVENT_TYPE] });
    const { secret } = await client.webhooks.signingSecret.get(webhook.id);
    const served = await serveWorker(built.scriptPath, {
      bindings: { FUNCTIONS_BASE_URL: BENCH_ORIGIN, PLATFORM_API_KEY: account.apiKey, PLATFORM_BASE_URL: platform.url },
      queueProducers: { EVENTS_QUEUE: 'bench-events' },
    });
    try {
      const key = await functionKey(BENCH_SECRET, QUOTE_FUNCTION);
      const headers = await signatureHeaders(EVENT_BODY, secret);
      const cases = {
        delivery: { url: new URL(EVENTS_PATH, served.url).href, body: EVENT_BODY, expectStatus: 202, headers },
        call: {
          url: new URL(`/functions/${QUOTE_FUNCTION}?key=${key}`, served.url).href,
          body: VALID_BODY,
          expectStatus: 200,
        },
      };
      const names = Object.keys(cases) as (keyof EventAckRounds)[];
      return await interleavedLoad(names, (name) => cases[name], options, 'events', progress);
    } finally {
      await served.stop();
    }
  } finally {
    await platform.close();
  }
};
