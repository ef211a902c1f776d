import type { z } from 'zod';
import type { Env } from '../env.ts';
import type { Logger } from '../log.ts';
import type { PlatformClient } from '../platform/client/client.ts';

/** What an event handler receives beside the payload: a function's context, for one delivery. */
export interface EventContext {
  /** The Worker's environment: vars, secrets and bindings. */
  env: Env;
  /** The one structured logger, already bound to this event type and delivery. */
  log: Logger;
  /**
   * The platform client of the account the event happened in (the key and base address its entry
   * in platform.accounts.json names; by default PLATFORM_API_KEY and PLATFORM_BASE_URL), aborted
   * with `signal`; created on first use, throwing when either is unset (the delivery is then retried).
   */
  readonly platform: PlatformClient;
  /**
   * The accounts-file name of the account whose webhook delivered the event (the first account's
   * name for a delivery queued without one), e.g. "client-acme"; undefined only for a delivery
   * naming none when the Worker resolves no first account.
   */
  account: string | undefined;
  /** Fires when the handler's time limit passes: pass it to fetch() and other slow work. */
  signal: AbortSignal;
  /** Keeps work going after the handler returns (ExecutionContext.waitUntil). */
  waitUntil(promise: Promise<unknown>): void;
  /** The delivery's id when the platform gave one, else a hash of its signature and body. */
  deliveryId: string;
  /** 1 on the first run of this delivery, more when an earlier run threw. */
  attempt: number;
  /**
   * Runs `work` once per `key` across every delivery, retry and isolate of this account's events
   * (within the dedup window); later calls with the same key return without running it. Use a
   * business id as the key; each account of the accounts file has its own keys. When `work` throws,
   * the key is freed only if nothing can have happened: a platform error marked `ambiguous`, or the
   * time limit stopping `work`, keeps it (logged as `once_ambiguous`), so nothing is done twice.
   * @example await context.once(`confirmation:${appointment.id}`, () => platform.messages.send(message))
   */
  once(key: string, work: () => Promise<unknown>): Promise<'ran' | 'already-done'>;
}

/** The payload schema of an event: loose, so fields the platform adds later pass through. */
export type PayloadSchema = z.ZodType<Record<string, unknown>>;

/** One event type: the form a file in `events/` fills in. */
export interface EventDefinition<S extends PayloadSchema = PayloadSchema> {
  /** The event type name the platform sends, e.g. "appointment.booked"; also the file name. */
  type: string;
  /** The delivery body, e.g. `z.looseObject({ data: z.looseObject({ ... }) })`. */
  payload: S;
  /** Does the work; throwing retries the delivery later (then the dead-letter queue). */
  handler: (payload: z.output<S>, context: EventContext) => unknown;
  /** Time limit in milliseconds (default 30 000); the signal fires and the delivery is retried. */
  timeoutMs?: number;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds handlers of every payload type
export type AnyEventDefinition = EventDefinition<any>;

/**
 * Declares the handler of one event type. An identity helper: it exists so the handler's payload
 * type is inferred from the schema.
 * @example
 * export default defineEvent({
 *   type: 'message.received',
 *   payload: z.looseObject({ data: z.looseObject({ message: z.looseObject({ text: z.string() }) }) }),
 *   handler: ({ data }, { log }) => log.info('received', { length: data.message.text.length }),
 * });
 */
export const defineEvent = <S extends PayloadSchema>(definition: EventDefinition<S>): EventDefinition<S> => definition;

/** Default time limit of an event handler, in milliseconds. */
export const DEFAULT_EVENT_TIMEOUT_MS = 30_000;
