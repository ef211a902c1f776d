// What a definition says of its calls within a conversation: read or write, how a write's repeats
// are recognised, and whether it may finish later. Resolved once per function with the rest of the
// definition (src/schema/describe.ts); the dedupe and later options are checked by the
// conversations feature that uses them (src/conversations/check.ts).
import {
  type AnyFunctionDefinition,
  DEFAULT_DEDUPE_WINDOW_MS,
  type DedupeOption,
  type Effect,
  type LaterOption,
} from './define.ts';
import { CONVERSATION_KEYS } from './platform/protocol/contract.ts';

/** A function's resolved conversation behaviour. */
export interface CallPolicy {
  effect: Effect;
  /** Present for a write whose repeats are recognised. */
  dedupe?: { windowMs: number; key?: DedupeOption['key'] };
  later?: LaterOption;
}

/**
 * The policy of `definition`; throws an Error when a parameter takes a conversation id's name or
 * the effect contradicts the annotations.
 * @example policyOf(definition, ['orderNumber']).effect // 'write'
 */
export const policyOf = (definition: AnyFunctionDefinition, parameterNames: readonly string[]): CallPolicy => {
  for (const name of [CONVERSATION_KEYS.contactId, CONVERSATION_KEYS.conversationId]) {
    if (parameterNames.includes(name))
      throw new Error(`parameter "${name}" is the platform's: read context.conversation.`);
  }
  const readOnly = definition.annotations?.readOnlyHint;
  const effect = definition.effect ?? (readOnly ? 'read' : 'write');
  if ((effect !== 'read' && effect !== 'write') || (readOnly !== undefined && readOnly !== (effect === 'read'))) {
    throw new Error(
      `effect ${JSON.stringify(effect)} contradicts annotations.readOnlyHint (or is not "read" or "write").`,
    );
  }
  const { dedupe, later } = definition;
  return {
    effect,
    ...(effect === 'write' && dedupe !== false
      ? {
          dedupe: {
            windowMs: dedupe?.windowMs ?? DEFAULT_DEDUPE_WINDOW_MS,
            ...(dedupe?.key ? { key: dedupe.key } : {}),
          },
        }
      : {}),
    ...(later ? { later: later as LaterOption } : {}),
  };
};
