// The events feature as one object the Worker takes: over the Worker's account resolver, the
// routes of every account's events endpoint for fetch and the consumer for queue. Only the
// generated events registry imports this, and only when events/ has files, so a project without
// events bundles none of it.
import { withAccess } from '../accounts/access.ts';
import type { AccountResolver } from '../accounts/resolve.ts';
import type { Env } from '../env.ts';
import { createLogger } from '../log.ts';
import { EVENT_NAME } from '../platform/protocol/contract.ts';
import type { FeatureRoute } from '../route.ts';
import { EVENTS_ROUTE, eventsAccountOf } from './accounts.ts';
import { consumeDeliveries } from './consumer.ts';
import type { AnyEventDefinition } from './define.ts';
import { receiveDelivery, refuseUndeliverable } from './endpoint.ts';

/** One path the Worker routes to the events feature, and what answers it. */
export type EventsRoute = FeatureRoute;

/** The events feature over one Worker's accounts. */
export interface ServedEvents {
  /** The events endpoints: /events for the first account, /events/<name> for every other it serves. */
  routes: readonly EventsRoute[];
  /** The queue handler of the events queue. */
  queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void>;
}

/** What the Worker needs of the events feature. */
export interface EventsService {
  /** The event types with a handler, sorted. */
  types(): string[];
  /**
   * The routes and queue handler over `accounts`, the Worker's one account resolver, whose account
   * of a path without a name is `first` (createWorker calls this).
   */
  serve(accounts: AccountResolver, first: string | undefined): ServedEvents;
}

/**
 * Serves the handlers of `definitions` (`{ "<event.type>": definition }`, the generated registry)
 * to the webhooks of every account the Worker serves: the accounts file's and the account store's.
 * Throws when a file's name and its `type` disagree, so `npm test` catches it before a deploy.
 * @example export const events = serveEvents({ 'message.received': messageReceived })
 */
export const serveEvents = (definitions: Record<string, AnyEventDefinition>): EventsService => {
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
    serve: (resolver, first) => {
      // The default account's access where the resolver leaves it out (src/accounts/access.ts).
      const accounts = withAccess(resolver);
      const endpoint: EventsRoute[1] = async (request, env) => {
        const path = new URL(request.url).pathname.replace(/\/+$/, '');
        const base = { route: 'events', requestId: request.requestId };
        refuseUndeliverable(request, createLogger(base));
        const { resolved, path: own } = await eventsAccountOf(accounts, first, env, path, createLogger(base));
        const log = createLogger({ ...base, account: resolved.account.name });
        return receiveDelivery(request, env, {
          types,
          account: resolved,
          path: own,
          log,
          requestId: request.requestId,
        });
      };
      return {
        routes: [[EVENTS_ROUTE, endpoint]],
        queue: (batch, env, ctx) => consumeDeliveries(batch, env, ctx, byType, accounts, first),
      };
    },
  };
};
