// One call, as everything after its arguments reads it: built once by execute (src/invoke.ts) from
// what the transport knows (its setup) and what the argument source read, and never written after.
// The core knows this value, a policy (src/policy.ts) and a task result; features (conversations,
// approval, MCP) plug in above it through CallFeature and never reach into the pipeline.
import type { AccountPlatform, CallAccount } from './account.ts';
import type { AccountResolver } from './accounts/resolve.ts';
import type { ReadArguments } from './args.ts';
import type { Conversation } from './conversation.ts';
import type { Env } from './env.ts';
import type { Logger } from './log.ts';
import type { CallMark } from './record.ts';
import type { RegisteredFunction, Registry } from './registry.ts';

/** Under MCP, a client that takes tasks (src/conversations/task.ts): a `later` function may answer with one. */
export interface TaskRequest {
  owner: string;
}

/** What a `later` call answers when its work became a task: the MCP client reads it with tasks/get. */
export class TaskCreated {
  readonly taskId: string;
  readonly createdAt: number;
  constructor(taskId: string, createdAt: number) {
    this.taskId = taskId;
    this.createdAt = createdAt;
  }
}

/** What a transport knows of a call before its arguments are read. */
export interface CallSetup {
  env: Env;
  ctx: { waitUntil(promise: Promise<unknown>): void };
  requestId: string;
  log: Logger;
  /** The HTTP request; absent for deferred work, which runs in a workflow instance. */
  request?: Request | undefined;
  /** When the call arrived (ms since the epoch): the time limit counts from here. */
  arrivedAt: number;
  account: CallAccount;
  /** Makes the account's platform client; absent when the Worker has no platform option. */
  platform?: AccountPlatform | undefined;
  task?: TaskRequest | undefined;
  /** Deferred work in its workflow: no deduplication, no deferral again. */
  deferred?: boolean | undefined;
  /**
   * The call's record as the transport builds it (src/record.ts): a feature marks on it what it
   * did (a repeat answered from the ledger, a deferral, an approval's ask), and the transport's
   * settle writes it when the call ends. The one thing of a call written after it is built.
   */
  mark?: CallMark | undefined;
}

/** Where one call's raw arguments come from (the HTTP request, an MCP `tools/call`, a workflow's params), before `deadline`. */
export type ArgumentSource = (deadline: number) => Promise<ReadArguments> | ReadArguments;

/** One call, read-only. */
export interface Call extends Readonly<CallSetup> {
  readonly conversation: Conversation | undefined;
  /** Identifiers the platform sent that could not be read: a feature that needs them decides what to do. */
  readonly unreadable: readonly string[] | undefined;
  /** When the arguments were in: a `later` function's answerWithinMs counts from here. */
  readonly readyAt: number;
  /** When the call must be answered (ms since the epoch): the body and the handler share it. */
  readonly deadline: number;
  /** Stops the running handler (its signal fires with `reason`): at the time limit, or when its work is deferred. */
  stop(reason: DOMException): void;
}

/** A feature that runs a validated call its own way (deduplicated, deferred, approved), above the core. */
export interface CallFeature {
  /** Runs `call` of `fn` with `args`; `run` is the handler under its time limit. */
  run(fn: RegisteredFunction, call: Call, args: Record<string, unknown>, run: () => unknown): unknown;
}

/** Whether `value` is a promise or any other thenable. */
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** The Worker's pipeline as another transport (MCP) runs it: its functions, its accounts and execute. */
export interface Pipeline {
  registry: Registry;
  accounts: AccountResolver;
  /** execute of src/invoke.ts with the Worker's features. */
  execute(fn: RegisteredFunction, setup: CallSetup, source: ArgumentSource): Promise<unknown>;
  /** Whether `later` functions may defer (the conversations option is on). */
  defers: boolean;
}
