// What deduplication and deferral read of one call: a narrow view of the runtime's Invocation.
import type { Env } from '../env.ts';
import type { Logger } from '../log.ts';
import type { Conversation } from './conversation.ts';
import type { TaskRequest } from './task.ts';

/** The parts of an invocation the conversation features use. */
export interface CallScope {
  env: Env;
  ctx: { waitUntil(promise: Promise<unknown>): void };
  log: Logger;
  requestId: string;
  /** When the call must be answered (ms since the epoch). */
  deadline?: number;
  conversation?: Conversation | undefined;
  /** Set under MCP for a client that takes tasks: a `later` function's work may become one. */
  task?: TaskRequest | undefined;
  /** Stops the running handler: set for `later` functions. */
  stop?: (reason: DOMException) => void;
}
