// The checks of a definition's `dedupe` and `later` options: part of the conversations feature,
// so a Worker without it does not bundle them. createWorker runs them with every translation
// (GET /functions refuses a bad definition, so sync does), and testDefinitions runs them too.
import type { AnyFunctionDefinition } from '../define.ts';
import { type CallPolicy, policyOf } from '../policy.ts';
import { APPROVAL_NEEDS_FEATURE } from '../schema/describe.ts';

/** Whether `value` is a whole number from `min` to `max`. */
const within = (value: unknown, min: number, max: number) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

/**
 * Throws an Error saying what to change in `definition`'s dedupe or later option.
 * @example checkConversationOptions({ ...definition, later: { answerWithinMs: 5, interim: '', message } }) // throws
 */
export const checkConversationOptions = (definition: AnyFunctionDefinition): void => {
  const { dedupe, later } = definition;
  // withApproval checks its own option and hands this check the definition without it.
  if (definition.approval) throw new Error(APPROVAL_NEEDS_FEATURE);
  if (dedupe && !within(dedupe.windowMs ?? 600_000, 1000, 86_400_000)) {
    throw new Error('dedupe.windowMs must be a whole number of milliseconds from 1000 to 86400000 (a day).');
  }
  if (!later) return;
  const limit = Math.min(30_000, (definition.timeoutMs ?? 10_000) - 1);
  if (!within(later.answerWithinMs, 100, limit)) {
    throw new Error(
      `later.answerWithinMs must be a whole number of milliseconds from 100 to ${limit}, shorter than timeoutMs.`,
    );
  }
  if (typeof later.interim !== 'string' || later.interim.trim().length < 10) {
    throw new Error(
      'later.interim must tell the model, in a sentence, that the work goes on and a message will follow.',
    );
  }
  if (typeof later.message !== 'function')
    throw new Error("later.message must turn the result into the customer's message.");
};

/**
 * The policy of `definition` with its options checked: what createWorker's conversations option
 * computes for each function as it is translated.
 * @example checkedPolicy(definition, ['orderNumber']).dedupe?.windowMs // 600000
 */
export const checkedPolicy = (definition: AnyFunctionDefinition, parameterNames: readonly string[]): CallPolicy => {
  const policy = policyOf(definition, parameterNames);
  checkConversationOptions(definition);
  return policy;
};
