// What a definition says of its calls within a conversation: read or write, how a write's repeats
// are recognised, and whether it may finish later. Checked once per function, with the rest of
// the definition (src/schema/describe.ts), so sync and the project's tests refuse a bad one.
import {
  type AnyFunctionDefinition,
  DEFAULT_DEDUPE_WINDOW_MS,
  type DedupeOption,
  type Effect,
  type LaterOption,
} from '../define.ts';
import { CONVERSATION_KEYS } from '../platform/protocol/contract.ts';

/** A function's resolved conversation behaviour. */
export interface CallPolicy {
  effect: Effect;
  /** Present for a write whose repeats are recognised. */
  dedupe?: { windowMs: number; key?: DedupeOption['key'] };
  later?: LaterOption;
}

/** Bounds of `answerWithinMs`: an answer sooner than 0.1 s is no answer; the platform waits seconds, not minutes. */
export const ANSWER_WITHIN_LIMITS = { min: 100, max: 30_000 } as const;

/** Longest dedupe window: a day. A repeat later than that is a new request. */
const MAX_WINDOW_MS = 24 * 3600_000;

/**
 * The policy of `definition`; throws an Error saying what to change when it contradicts itself.
 * @example policyOf(definition, ['orderNumber']).effect // 'write'
 */
export const policyOf = (definition: AnyFunctionDefinition, parameterNames: readonly string[]): CallPolicy => {
  for (const reserved of [CONVERSATION_KEYS.contactId, CONVERSATION_KEYS.conversationId]) {
    if (parameterNames.includes(reserved)) {
      throw new Error(
        `parameter "${reserved}" is the platform's conversation identifier, which the model must never fill: read context.conversation instead (docs/platform-contract.md §9).`,
      );
    }
  }
  const readOnly = definition.annotations?.readOnlyHint;
  const effect: Effect = definition.effect ?? (readOnly === true ? 'read' : 'write');
  if (effect !== 'read' && effect !== 'write')
    throw new Error(`effect must be "read" or "write", not ${JSON.stringify(effect)}.`);
  if (readOnly !== undefined && readOnly !== (effect === 'read')) {
    throw new Error(
      `effect "${effect}" contradicts annotations.readOnlyHint ${readOnly}: say the same thing in both, or leave readOnlyHint out.`,
    );
  }
  const policy: CallPolicy = { effect };
  const { dedupe, later } = definition;
  if (effect === 'write' && dedupe !== false) {
    const windowMs = dedupe?.windowMs ?? DEFAULT_DEDUPE_WINDOW_MS;
    if (!Number.isInteger(windowMs) || windowMs < 1000 || windowMs > MAX_WINDOW_MS) {
      throw new Error(`dedupe.windowMs must be a whole number of milliseconds from 1000 to ${MAX_WINDOW_MS}.`);
    }
    policy.dedupe = { windowMs, ...(dedupe?.key ? { key: dedupe.key } : {}) };
  } else if (effect === 'read' && dedupe) {
    throw new Error('dedupe applies to writes only: a read may run as often as the model asks.');
  }
  if (later) {
    const { answerWithinMs, interim, message } = later;
    const { min, max } = ANSWER_WITHIN_LIMITS;
    if (!Number.isInteger(answerWithinMs) || answerWithinMs < min || answerWithinMs > max) {
      throw new Error(`later.answerWithinMs must be a whole number of milliseconds from ${min} to ${max}.`);
    }
    if (typeof interim !== 'string' || interim.trim().length < 10) {
      throw new Error(
        'later.interim must tell the model, in a sentence, that the work goes on and a message will follow.',
      );
    }
    if (typeof message !== 'function')
      throw new Error("later.message must turn the result into the customer's message.");
    if ((definition.timeoutMs ?? Number.POSITIVE_INFINITY) <= answerWithinMs) {
      throw new Error('later.answerWithinMs must be shorter than timeoutMs.');
    }
    policy.later = later as LaterOption;
  }
  return policy;
};
