// The queue consumer: each delivery runs its handler at least once, and a repeat of a delivery
// already handled (the platform delivered twice, or the queue redelivered) is acknowledged
// without running it again. A handler that throws is retried with growing delays; after the
// queue's max_retries the delivery goes to the dead-letter queue (wrangler.toml). Each run makes
// one record (src/record.ts) of the delivery: its event type, its account and how it ended.

import type { AccessibleAccount, AccessibleResolver } from '../accounts/access.ts';
import { FunctionError } from '../errors.ts';
import { createLogger, type Logger } from '../log.ts';
import { createPlatformClient, type PlatformClient } from '../platform/client/client.ts';
import { PlatformError } from '../platform/client/errors.ts';
import { closeRecord, observe, openRecord } from '../record.ts';
import { type AnyEventDefinition, DEFAULT_EVENT_TIMEOUT_MS, type EventContext } from './define.ts';
import { ledgerKeyOf, type QueuedDelivery, withinAccount } from './delivery.ts';
import type { EventsEnv as Env } from './env.ts';
import { type Claim, ledgerFor } from './ledger.ts';

/** Extra lease beyond a handler's time limit, so a slow finish is not mistaken for a crash. */
const LEASE_MARGIN_MS = 30_000;

/** Seconds before retry `attempt` + 1: 10, 20, 40, 80, 160, ... at most 15 minutes. */
export const retryDelaySeconds = (attempt: number): number => Math.min(900, 10 * 2 ** Math.max(0, attempt - 1));

const isDelivery = (value: unknown): value is QueuedDelivery => {
  const v = value as Partial<QueuedDelivery> | null;
  return typeof v?.type === 'string' && typeof v.deliveryId === 'string' && typeof v.body === 'string';
};

/** Claims `key` in the ledger (a run without one when the binding is missing: at least once still holds). */
const claim = async (env: Env, key: string, leaseMs: number): Promise<Claim> =>
  env.EVENT_LEDGER ? (await ledgerFor(env.EVENT_LEDGER, key)).claim(key, leaseMs) : { verdict: 'run' };

const closeLedgerEntry = async (env: Env, key: string, outcome: 'complete' | 'release', log: Logger) => {
  if (!env.EVENT_LEDGER) return;
  try {
    const ledger = await ledgerFor(env.EVENT_LEDGER, key);
    await (outcome === 'complete' ? ledger.complete(key) : ledger.release(key));
  } catch (error) {
    // Only dedup suffers: the lease runs out and a repeat may run the handler again.
    log.warn('ledger_unavailable', { outcome, error: error instanceof Error ? error.name : typeof error });
  }
};

/**
 * Whether failed work may still have had its effect: the platform client says so (a send with no
 * clear answer), or the handler's time limit stopped it while it was under way.
 */
const mayHaveApplied = (error: unknown, signal: AbortSignal): boolean =>
  (error instanceof PlatformError && error.ambiguous) || signal.aborted;

/** Thrown by `once` while another run holds the same key; the delivery is retried later. */
class KeyBusy extends Error {
  override name = 'KeyBusy';
}

/** What a delivery's account resolved to: the account, or why there is none. */
type Acting = { resolved: AccessibleAccount } | { refused: string };

/** Resolves the account a delivery came from (the first for one queued without a name), as a call's is. */
const actingFor = async (
  accounts: AccessibleResolver,
  env: Env,
  name: string | undefined,
  log: Logger,
): Promise<Acting> => {
  try {
    return { resolved: await accounts(env, name, log) };
  } catch {
    return { refused: 'the Worker no longer serves this account (removed from the accounts file and the store)' };
  }
};

/** The client of the account a delivery came from; never another account's (a message would go out from the wrong business). */
const platformOf = (acting: Acting, name: string | undefined, signal: AbortSignal): PlatformClient => {
  const access = 'resolved' in acting ? acting.resolved.access : undefined;
  if (!access?.ok) {
    const why = access ? `${access.missing.join(' and ')} must be set` : (acting as { refused: string }).refused;
    throw new FunctionError(
      503,
      'platform_not_configured',
      `No platform client for account "${name ?? 'the first'}": ${why}.`,
    );
  }
  const { baseUrl, apiKey, keyPlacement } = access;
  return createPlatformClient({ baseUrl, apiKey, signal, ...(keyPlacement ? { keyPlacement } : {}) });
};

const contextFor = (
  env: Env,
  ctx: ExecutionContext,
  log: Logger,
  signal: AbortSignal,
  delivery: QueuedDelivery,
  acting: Acting,
  attempt: number,
  leaseMs: number,
): EventContext => {
  let platform: PlatformClient | undefined;
  return {
    env,
    log,
    signal,
    waitUntil: (promise) => ctx.waitUntil(promise),
    deliveryId: delivery.deliveryId,
    // The account's own name, resolved: a delivery queued without one is the first account's,
    // named as the accounts file names it (never assumed to be "default").
    account: 'resolved' in acting ? acting.resolved.account.name : delivery.account,
    attempt,
    // Lazy: a handler that never calls the platform needs neither secret.
    get platform() {
      platform ??= platformOf(acting, delivery.account, signal);
      return platform;
    },
    once: async (key, work) => {
      const scoped = withinAccount(delivery.account, `once:${key}`);
      const found = await claim(env, scoped, leaseMs);
      if (found.verdict === 'done') return 'already-done';
      if (found.verdict === 'busy') throw new KeyBusy(`another run holds "${key}"`);
      try {
        await work();
      } catch (error) {
        if (mayHaveApplied(error, signal)) {
          // The work may have happened (a send the platform answered 5xx or never answered, or one
          // the time limit cut off): keep the key, so a retry never does it twice, and say so.
          await closeLedgerEntry(env, scoped, 'complete', log);
          log.error('once_ambiguous', {
            key,
            error: error instanceof Error ? error.name : typeof error,
            hint: 'the work may or may not have happened; check it, it will not run again for this key',
          });
        } else await closeLedgerEntry(env, scoped, 'release', log);
        throw error;
      }
      await closeLedgerEntry(env, scoped, 'complete', log);
      return 'ran';
    },
  };
};

/** Runs `work` under a time limit whose signal it gets; rejects when the limit passes. */
const withTimeLimit = async <T>(timeoutMs: number, work: (signal: AbortSignal) => T | Promise<T>): Promise<T> => {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | null = null;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const reason = new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError');
      controller.abort(reason);
      reject(reason);
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), expired]);
  } finally {
    if (timer !== null) clearTimeout(timer);
  }
};

const consumeOne = async (
  message: Message<unknown>,
  env: Env,
  ctx: ExecutionContext,
  definitions: ReadonlyMap<string, AnyEventDefinition>,
  accounts: AccessibleResolver,
  first: string | undefined,
): Promise<void> => {
  const started = Date.now();
  // The run's one record: the queue's message id joins it to the run's log lines.
  const record = openRecord('queue', message.id, 'event');
  const delivery = message.body;
  if (!isDelivery(delivery)) {
    const log = createLogger({ messageId: message.id });
    log.error('event_unreadable', { hint: 'not a queued delivery: dropped' });
    observe(log, closeRecord(record, 400, 'event_unreadable', started), env, ctx);
    return message.ack();
  }
  const { type, deliveryId } = delivery;
  const log = createLogger({
    eventType: type,
    deliveryId,
    attempt: message.attempts,
    account: delivery.account,
    requestId: message.id,
  });
  // A delivery queued without an account came to the first account's endpoint.
  record.account = delivery.account ?? first ?? null;
  const end = (status: number, code?: string) => observe(log, closeRecord(record, status, code, started), env, ctx);
  const definition = definitions.get(type);
  if (!definition) {
    // Queued before a deploy removed its handler: retrying cannot help.
    log.warn('event_unknown_type');
    end(404, 'event_unknown_type');
    return message.ack();
  }
  record.function = type;
  const parsed = definition.payload.safeParse(JSON.parse(delivery.body));
  if (!parsed.success) {
    // The same body fails the same way every time: log where (never the values) and drop it.
    const fields = parsed.error.issues.map((issue: { path: PropertyKey[] }) => issue.path.join('.') || '(body)');
    log.error('event_invalid_payload', { fields });
    end(422, 'event_invalid_payload');
    return message.ack();
  }
  const timeoutMs = definition.timeoutMs ?? DEFAULT_EVENT_TIMEOUT_MS;
  const leaseMs = timeoutMs + LEASE_MARGIN_MS;
  const ledgerKey = ledgerKeyOf(delivery);
  let found: Claim;
  try {
    found = await claim(env, ledgerKey, leaseMs);
  } catch {
    log.error('ledger_unavailable', { hint: 'retried later' });
    end(503, 'ledger_unavailable');
    return message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
  }
  if (found.verdict === 'done') {
    log.info('event_duplicate');
    record.repeated = true;
    end(200);
    return message.ack();
  }
  if (found.verdict === 'busy') {
    // Another run holds it and makes its record: this one ran nothing.
    log.info('event_busy', { retryInMs: found.retryInMs });
    return message.retry({ delaySeconds: Math.ceil(found.retryInMs / 1000) });
  }
  return handle(message, delivery, definition, parsed.data, { env, ctx, log, accounts, timeoutMs, leaseMs, end });
};

/** Runs a claimed delivery's handler under its time limit: acknowledged when it ends, retried when it throws. */
const handle = async (
  message: Message<unknown>,
  delivery: QueuedDelivery,
  definition: AnyEventDefinition,
  payload: unknown,
  run: {
    env: Env;
    ctx: ExecutionContext;
    log: Logger;
    accounts: AccessibleResolver;
    timeoutMs: number;
    leaseMs: number;
    end: (status: number, code?: string) => void;
  },
): Promise<void> => {
  const { env, ctx, log, leaseMs, end } = run;
  const ledgerKey = ledgerKeyOf(delivery);
  const started = Date.now();
  try {
    const acting = await actingFor(run.accounts, env, delivery.account, log);
    await withTimeLimit(run.timeoutMs, (signal) =>
      definition.handler(
        payload as never,
        contextFor(env, ctx, log, signal, delivery, acting, message.attempts, leaseMs),
      ),
    );
  } catch (error) {
    await closeLedgerEntry(env, ledgerKey, 'release', log);
    const delaySeconds = retryDelaySeconds(message.attempts);
    log.error('event_failed', {
      error: error instanceof Error ? error.name : typeof error,
      retryInSeconds: delaySeconds,
    });
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    end(timedOut ? 504 : 500, timedOut ? 'timeout' : 'event_failed');
    return message.retry({ delaySeconds });
  }
  await closeLedgerEntry(env, ledgerKey, 'complete', log);
  log.info('event_handled', { durationMs: Date.now() - started });
  end(200);
  message.ack();
};

/**
 * The queue handler of every event type in `definitions`: one batch, each delivery on its own,
 * its handler given the platform client of the account it came from, as `accounts` (the Worker's
 * one account resolver) resolves it.
 * @example export default { queue: (batch, env, ctx) => consumeDeliveries(batch, env, ctx, byType, accounts) }
 */
export const consumeDeliveries = async (
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
  definitions: ReadonlyMap<string, AnyEventDefinition>,
  accounts: AccessibleResolver,
  /** The first account's name: a delivery queued without one came to its endpoint (its record names it). */
  first?: string,
): Promise<void> => {
  await Promise.all(batch.messages.map((message) => consumeOne(message, env, ctx, definitions, accounts, first)));
};
