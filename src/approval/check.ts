// The checks of a definition's `approval` option, run with the conversations feature's own checks
// as each function is translated (GET /functions refuses a bad definition, so sync does).
import type { AnyFunctionDefinition } from '../define.ts';

const MIN_EXPIRES_MS = 60_000;
const MAX_EXPIRES_MS = 7 * 86_400_000;

const isMessage = (value: unknown) =>
  typeof value === 'function' || (typeof value === 'string' && value.trim().length >= 10);

/**
 * Throws an Error saying what to change in `definition`'s approval option.
 * @example checkApproval({ ...definition, approval: { ask: 'Refund?' } }) // throws: message is missing
 */
export const checkApproval = (definition: AnyFunctionDefinition, effect: 'read' | 'write'): void => {
  const { approval } = definition;
  if (!approval) return;
  if (effect !== 'write') throw new Error('approval is for writes: a read changes nothing a person must approve.');
  if (definition.later)
    throw new Error('approval and later cannot be combined: an approved call already finishes later.');
  if (approval.when !== undefined && typeof approval.when !== 'function')
    throw new Error('approval.when must be a function of the arguments that says whether this call needs approval.');
  if (typeof approval.ask !== 'function')
    throw new Error('approval.ask must turn the arguments into the question the team reads.');
  const expires = approval.expiresInMs ?? 86_400_000;
  if (!Number.isInteger(expires) || expires < MIN_EXPIRES_MS || expires > MAX_EXPIRES_MS) {
    throw new Error(
      `approval.expiresInMs must be a whole number of milliseconds from ${MIN_EXPIRES_MS} to ${MAX_EXPIRES_MS} (a week).`,
    );
  }
  if (approval.waiting !== undefined && !(typeof approval.waiting === 'string' && approval.waiting.trim().length >= 10))
    throw new Error(
      'approval.waiting must tell the model, in a sentence, that a colleague decides and a message will follow.',
    );
  if (typeof approval.message !== 'function')
    throw new Error("approval.message must turn the result into the customer's message.");
  if (!isMessage(approval.denied))
    throw new Error(
      "approval.denied must be the customer's message on a denial (a sentence, or a function of the arguments).",
    );
  if (!isMessage(approval.expired))
    throw new Error(
      "approval.expired must be the customer's message on expiry (a sentence, or a function of the arguments).",
    );
};
