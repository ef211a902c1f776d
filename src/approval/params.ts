// What an approval's workflow instance starts from (src/approval/ask.ts creates it).
import type { Conversation } from '../conversation.ts';

/** One approval request's waiting and work: the call it is for, whose answer waits for a person. */
export interface ApprovalParams {
  name: string;
  /** The validated arguments the team was asked about, through JSON. */
  args: Record<string, unknown>;
  /** Where the customer is told; absent for an MCP task, whose client reads the outcome instead. */
  conversation?: Conversation & { channel: string };
  /** An MCP client's task (src/conversations/task.ts), created at `createdAt`. */
  task?: { createdAt: number };
  account: string;
  /** When the request expires (ms since the epoch); the wait ends then. */
  expiresAt: number;
  code: string;
  requestId: string;
}

/** The event that wakes an instance once the desk holds a decision; the decision itself is read from the desk. */
export const DECISION_EVENT = 'decision';
