// The events feature as one object the Worker takes: one route per account for fetch, the consumer
// for queue. Only the generated events registry imports this, and only when events/ has files, so
// a project without events bundles none of it.
import type { Env } from '../env.ts';
import { createLogger } from '../log.ts';
import { EVENT_NAME } from '../platform/protocol/contract.ts';
import type { FeatureRoute } from '../route.ts';
import { DEFAULT_EVENTS_ACCOUNTS, type EventsAccount } from './accounts.ts';
import { consumeDeliveries } from './consumer.ts';
import type { AnyEventDefinition } from './define.ts';
import { receiveDelivery } from './endpoint.ts';

/** One path the Worker routes to the events feature (one per account), and what answers it. */
export type EventsRoute = FeatureRoute;

/** What the Worker needs of the events feature. */
export interface EventsService {
  /** The event types with a handler, sorted. */
  types(): string[];
  /** One endpoint per account of the accounts file, each verifying with that account's secret. */
  routes: readonly EventsRoute[];
  /** The queue handler of the events queue. */
  queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void>;
}

/**
 * Serves the handlers of `definitions` (`{ "<event.type>": definition }`, the generated registry)
 * to the webhooks of `accounts` (the generated list of the accounts file).
 * Throws when a file's name and its `type` disagree, so `npm test` catches it before a deploy.
 * @example export const events = serveEvents({ 'message.received': messageReceived }, accounts)
 */
export const serveEvents = (
  definitions: Record<string, AnyEventDefinition>,
  accounts: readonly EventsAccount[] = DEFAULT_EVENTS_ACCOUNTS,
): EventsService => {
  const byType = new Map<string, AnyEventDefinition>();
  for (const [name, definition] of Object.entries(definitions)) {
    if (definition.type !== name || !EVENT_NAME.test(name)) {
      throw new Error(
        `events/${name}.ts declares type "${definition.type}": the file name must be the event type, like events/message.received.ts`,
      );
    }
    byType.set(name, definition);
  }
  const types = new Set(byType.keys());
  return {
    types: () => [...types].sort(),
    routes: accounts.map(
      (account): EventsRoute => [
        account.path,
        (request, env) =>
          receiveDelivery(request, env, {
            types,
            account,
            log: createLogger({ route: 'events', account: account.name, requestId: request.requestId }),
            requestId: request.requestId,
          }),
      ],
    ),
    queue: (batch, env, ctx) => consumeDeliveries(batch, env, ctx, byType, accounts),
  };
};
