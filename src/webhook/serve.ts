// The events feature as one object the Worker takes: the endpoint for fetch, the consumer for
// queue. Only the generated events registry imports this, and only when events/ has files, so a
// project without events bundles none of it.
import type { Env } from '../env.ts';
import type { Logger } from '../log.ts';
import { EVENT_NAME } from '../platform/contract.ts';
import { consumeDeliveries } from './consumer.ts';
import type { AnyEventDefinition } from './define.ts';
import { receiveDelivery } from './endpoint.ts';

/** What the Worker needs of the events feature. */
export interface EventsService {
  /** The event types with a handler, sorted. */
  types(): string[];
  /** Answers one delivery to the events endpoint. */
  receive(request: Request, env: Env, context: { log: Logger; requestId: string }): Promise<Response>;
  /** The queue handler of the events queue. */
  queue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void>;
}

/**
 * Serves the handlers of `definitions` (`{ "<event.type>": definition }`, the generated registry).
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
    receive: (request, env, context) => receiveDelivery(request, env, { types, ...context }),
    queue: (batch, env, ctx) => consumeDeliveries(batch, env, ctx, byType),
  };
};
