// A write runs at most once per conversation within its window: a repeat (same function, same
// identity) gets the first call's answer, and waits for it while the first still runs. Only for
// calls the platform says belong to a conversation; a call without one always runs.
import type { Call } from '../call.ts';
import type { Env } from '../env.ts';
import { FunctionError } from '../errors.ts';
import type { RegisteredFunction } from '../registry.ts';
import { callKeyOf, ledgerNameOf } from './callKey.ts';
import type { CallClaim, CallLedger } from './ledger.ts';

/** Extra lease beyond a function's time limit, so a slow finish is not mistaken for a crash. */
const LEASE_MARGIN_MS = 30_000;

/** Largest answer kept for repeats; a larger one is remembered as done, without its content. */
const MAX_KEPT_ANSWER = 64 * 1024;

type Kept = { ok: true; value: unknown } | { ok: false; status: number; code: string; message: string };

const unavailable = () =>
  new FunctionError(
    503,
    'dedupe_unavailable',
    'This was not done: the service that makes sure it happens only once is unavailable right now. Nothing has changed. Tell the customer you cannot do it at this moment and offer to try again in a few minutes.',
  );

const stillRunning = () =>
  new FunctionError(
    409,
    'call_in_progress',
    'The same request from this conversation is still being carried out. Do not call again: tell the customer it is in hand.',
  );

const outcomeUnknown = () =>
  new FunctionError(
    409,
    'outcome_unknown',
    'The same request was made earlier in this conversation and it may or may not have gone through. Do not call again: tell the customer a colleague will check and confirm.',
  );

/** Whether a failed run may still have had its effect: the time limit cut it, it failed unexpectedly, or the handler says so. */
const mayHaveApplied = (error: unknown): boolean =>
  !(error instanceof FunctionError) || error.status === 504 || error.mayHaveApplied;

const keep = (outcome: Kept): string => {
  const text = JSON.stringify(outcome);
  return text.length <= MAX_KEPT_ANSWER
    ? text
    : JSON.stringify({
        ok: true,
        value: { alreadyDone: true, note: 'This was already done earlier in the conversation.' },
      });
};

const answerOf = (answer: string): unknown => {
  const kept = JSON.parse(answer) as Kept;
  if (kept.ok) return kept.value;
  throw new FunctionError(kept.status, kept.code, kept.message);
};

/** Writes to the ledger after the answer; a failure is logged (the lease runs out and the key becomes unknown: fails closed). */
const writeLater = (inv: Call, work: unknown): void =>
  inv.ctx.waitUntil(
    Promise.resolve(work).catch((error: unknown) =>
      inv.log.warn('call_ledger_unavailable', { error: error instanceof Error ? error.name : typeof error }),
    ),
  );

/** The ledger namespace, or a 503 (fails closed: without it a write could run twice). */
const namespaceOf = (env: Env, inv: Call): DurableObjectNamespace<CallLedger> => {
  const namespace = (env as { CALL_LEDGER?: DurableObjectNamespace<CallLedger> }).CALL_LEDGER;
  if (namespace) return namespace;
  inv.log.error('call_ledger_missing', {
    hint: 'bind the CallLedger Durable Object as CALL_LEDGER in wrangler.toml and export it from worker.ts, or set dedupe: false',
  });
  throw unavailable();
};

/**
 * Runs `run` unless the same call of this conversation ran within the window; `args` are the validated arguments.
 * @example return deduplicated(fn, call, args, conversationId, run)
 */
export const deduplicated = async (
  fn: RegisteredFunction,
  inv: Call,
  args: Record<string, unknown>,
  conversationId: string,
  run: () => unknown,
): Promise<unknown> => {
  const dedupe = fn.policy?.dedupe as NonNullable<NonNullable<RegisteredFunction['policy']>['dedupe']>;
  const contactId = inv.conversation?.contactId ?? '';
  const namespace = namespaceOf(inv.env, inv);
  let key: string;
  let claim: CallClaim;
  let ledger: DurableObjectStub<CallLedger>;
  try {
    const [callKey, ledgerName] = await Promise.all([
      callKeyOf(fn.name, dedupe.key ? dedupe.key(args) : args),
      ledgerNameOf(inv.account.name, contactId, conversationId),
    ]);
    key = callKey;
    ledger = namespace.getByName(ledgerName);
    const waitMs = Math.max(0, inv.deadline - Date.now());
    claim = await ledger.claim(key, fn.manifest.timeoutMs + LEASE_MARGIN_MS, waitMs, dedupe.windowMs);
  } catch (error) {
    if (error instanceof FunctionError) throw error;
    inv.log.error('call_ledger_unavailable', { error: error instanceof Error ? error.name : typeof error });
    throw unavailable();
  }
  if (claim.verdict === 'done') {
    // The call's record says so (src/record.ts): answered from the ledger, nothing ran.
    if (inv.mark) inv.mark.repeated = true;
    inv.log.info('call_repeated');
    return answerOf(claim.answer);
  }
  if (claim.verdict === 'busy') throw stillRunning();
  if (claim.verdict === 'unknown') throw outcomeUnknown();
  let value: unknown;
  try {
    value = await run();
  } catch (error) {
    if (mayHaveApplied(error)) {
      const known = error instanceof FunctionError ? error : undefined;
      const kept: Kept = known
        ? { ok: false, status: known.status, code: known.code, message: known.message }
        : { ok: false, status: 409, code: 'outcome_unknown', message: outcomeUnknown().message };
      writeLater(inv, ledger.complete(key, JSON.stringify(kept), dedupe.windowMs));
    } else writeLater(inv, ledger.release(key));
    throw error;
  }
  writeLater(inv, ledger.complete(key, keep({ ok: true, value }), dedupe.windowMs));
  return value;
};
