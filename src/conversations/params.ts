// What a workflow instance of a deferred call starts from (src/conversations/later.ts creates it).
import type { Conversation } from '../conversation.ts';

/**
 * The start of one deferred call's work: the function, its validated arguments, and where its
 * outcome goes: a message to the conversation's contact (a platform call), or kept for an MCP
 * client's tasks/get (a task, created at `task.createdAt`).
 */
export interface DeferredParams {
  name: string;
  /** The account the call came from (docs/platform-contract.md §10): the work and its message act in it. */
  account: string;
  /** The validated arguments, through JSON. */
  args: Record<string, unknown>;
  conversation?: Conversation & { channel: string };
  task?: { createdAt: number };
  requestId: string;
}
