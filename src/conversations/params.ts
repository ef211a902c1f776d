// What a workflow instance of a deferred call starts from (src/conversations/later.ts creates it).
import type { Conversation } from './conversation.ts';

/** The start of one deferred call's work: the function, its validated arguments, whom to message. */
export interface DeferredParams {
  name: string;
  /** The validated arguments, through JSON. */
  args: Record<string, unknown>;
  conversation: Conversation & { channel: string };
  requestId: string;
}
