// One alert evaluation, run by the Worker's `scheduled` handler on its cron trigger (wrangler.toml
// `[triggers]`; under `npm run dev`, wrangler's scheduled path): the FunctionHealth Durable Object moves
// every incident on and hands out the messages due, marked in flight; they are sent, and their
// outcomes recorded. A failing evaluation throws (the cron run shows it failed) and the next tick
// starts again from the same stored figures and incidents, so nothing is sent twice
// (docs/observability.md "Alerts").
import type { AccountResolver } from '../accounts/resolve.ts';
import type { Env } from '../env.ts';
import { createLogger } from '../log.ts';
import { newRequestId } from '../respond.ts';
import { deliver, destinationOf } from './deliver.ts';
import { HEALTH_INSTANCE } from './health.ts';
import type { SendOutcome } from './incidents.ts';
import type { MetricsBindings } from './sink.ts';
import type { AlertConfig } from './thresholds.ts';

/** Messages one evaluation sends at most; more wait for the next tick (a mass outage does not flood the contact). */
export const MAX_NOTICES_PER_TICK = 20;

/**
 * Evaluates the rules at `now` and sends what is due; resolves to the outcomes by notice id.
 * @example await runAlerts(env, controller.scheduledTime, config, resolver)
 */
export const runAlerts = async (
  env: Env,
  now: number,
  config: AlertConfig,
  resolve: AccountResolver,
): Promise<Record<string, SendOutcome>> => {
  const log = createLogger({ requestId: newRequestId(), event_source: 'alerts' });
  const health = (env as MetricsBindings).FUNCTION_HEALTH;
  if (!health) {
    log.warn('alerts_unbound', {
      binding: 'FUNCTION_HEALTH',
      hint: 'add the FunctionHealth Durable Object to wrangler.toml',
    });
    return {};
  }
  const stub = health.get(health.idFromName(HEALTH_INSTANCE));
  const due = await stub.evaluate(now, config, MAX_NOTICES_PER_TICK);
  if (due.length === 0) return {};
  const destination = await destinationOf(env, resolve, log);
  const outcomes: Record<string, SendOutcome> = {};
  // One at a time: a handful of messages, and the platform's rate limit is the account's.
  for (const notice of due) outcomes[notice.id] = await deliver(notice, destination, log, now);
  await stub.recordSends(Object.entries(outcomes).map(([id, outcome]) => ({ id, outcome })));
  return outcomes;
};
