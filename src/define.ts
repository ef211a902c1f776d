import type { z } from 'zod';
import type { CallAccount } from './account.ts';
import type { Conversation } from './conversation.ts';
import type { Env } from './env.ts';
import type { Logger } from './log.ts';
import type { PlatformClient } from './platform/client/client.ts';

/** What a handler receives beside its arguments. */
export interface FunctionContext {
  /** The Worker's environment: vars, secrets and bindings. */
  env: Env;
  /** Also sent back as `X-Request-Id`; quote it in logs and support tickets. */
  requestId: string;
  /** Fires when the function's time limit passes: pass it to fetch() and other slow work. */
  signal: AbortSignal;
  /** Keeps work going after the answer is sent (ExecutionContext.waitUntil). */
  waitUntil(promise: Promise<unknown>): void;
  /**
   * The raw request, for anything the arguments do not carry (platform-added fields, headers);
   * undefined when the call runs as deferred work, after its request was answered.
   */
  request: Request | undefined;
  /** The one structured logger, already bound to this function and request. */
  log: Logger;
  /**
   * The platform client of the call's account (its key, base address and key placement), aborted
   * with `signal`; created on first use, a 503 when the account's key or address is not set.
   * @example await context.platform.contacts.create({ name, phone, channel: 'whatsapp' })
   */
  readonly platform: PlatformClient;
  /**
   * The platform account the call comes from (docs/platform-contract.md §10): its name and its
   * settings. Keep any state a function stores under this name: ids are unique only within an account.
   * @example const zone = context.account.settings.timezone ?? 'Europe/Amsterdam'
   */
  account: CallAccount;
  /**
   * The conversation the platform says this call comes from (docs/platform-contract.md §9), never
   * from the arguments. Absent when the platform sent no contact, and always under MCP.
   * @example if (context.conversation?.channel) log.info('from', { channel: context.conversation.channel })
   */
  conversation?: Conversation | undefined;
  /** True when the call runs as deferred work (a `later` function past its answerWithinMs), not in the call. */
  deferred?: boolean | undefined;
}

/** What a function does to the world: `read` changes nothing; `write` does (the default). */
export type Effect = 'read' | 'write';

/**
 * How a write's repeats within one conversation are recognised (docs/functions.md "Calls that
 * repeat"): a repeat does not run, it gets the first call's answer.
 */
export interface DedupeOption<A = Record<string, unknown>> {
  /** How long a call is remembered, in milliseconds (default 600 000: 10 minutes). */
  windowMs?: number;
  /**
   * What makes two calls the same (default: all the validated arguments).
   * @example key: () => 'handoff' // one hand-off per conversation in the window, whatever the summary
   */
  key?(args: A): unknown;
}

/**
 * A function that may finish after the call was answered (docs/functions.md "Slow work"): past
 * `answerWithinMs` the agent gets `interim`, and the result reaches the customer as one message.
 */
export interface LaterOption<A = Record<string, unknown>, R = unknown> {
  /** How long the agent may wait for the real answer, in milliseconds (100 to 30 000). */
  answerWithinMs: number;
  /** What the model reads when the work goes on: say what is happening and that a message will follow. */
  interim: string;
  /** The customer's message once the work is done. */
  message(result: Awaited<R>, args: A): string;
  /**
   * The customer's message if the work finally fails (default: an apology saying it could not be
   * done); given the handler's refusal (a FunctionError under 500, never retried) when there was one.
   * @example failure: (refusal) => refusal?.code === 'order_not_found' ? 'I could not find that order.' : 'Sorry, I could not check it.'
   */
  failure?: string | ((refusal: { code: string; status: number } | undefined) => string);
  /** Attempts of the work after the first, with growing delays (default 4). */
  retries?: number;
}

/** What an approval's `when` reads of the call beside its arguments (docs/functions.md "Approval"). */
export interface ApprovalContext {
  env: Env;
  conversation?: Conversation | undefined;
  /** The account the call came through ("default" until accounts are configured). */
  account: string;
}

/**
 * A write a person approves before it runs (docs/functions.md "Approval"): the team contact is
 * asked through the platform, the agent gets `waiting` at once, and the customer gets one message
 * once a person decides (or the request expires). Needs createWorker's `conversations: withApproval(...)`.
 */
export interface ApprovalOption<A = Record<string, unknown>, R = unknown> {
  /**
   * Whether this call needs approval (default: every call). A call that does not runs as today.
   * @example when: (args) => args.amountCents > 10_000
   */
  when?(args: A, context: ApprovalContext): boolean | Promise<boolean>;
  /** What the team is asked, in one or two sentences: only this is shown on the approval page. */
  ask(args: A): string;
  /** How long the team has to decide, in milliseconds (60 000 to 604 800 000; default 86 400 000, a day). */
  expiresInMs?: number;
  /** What the model reads while the request waits (default: the request is with a colleague; promise nothing). */
  waiting?: string;
  /** The customer's message once approved and done. */
  message(result: Awaited<R>, args: A): string;
  /** The customer's message when the team says no. */
  denied: string | ((args: A) => string);
  /** The customer's message when nobody decided in time (the team is told too). */
  expired: string | ((args: A) => string);
}

/** What a function opts in to: one budget for the function, or one per caller IP address. */
export interface RateLimitOption {
  key: 'function' | 'caller';
}

/**
 * Hints an MCP client shows its user before a call (MCP tool annotations). Say what is true: a
 * client may skip confirmation for a read-only function.
 */
export interface FunctionAnnotations {
  /** Changes nothing anywhere (a look-up). */
  readOnlyHint?: boolean;
  /** May destroy or overwrite what exists (a cancellation); meaningful only when not read-only. */
  destructiveHint?: boolean;
  /** Calling it again with the same arguments changes nothing more. */
  idempotentHint?: boolean;
  /** Reaches something outside this Worker (a store, the platform, another service). */
  openWorldHint?: boolean;
}

/** A top-level parameter schema: always an object of named arguments. */
export type ParameterSchema = z.ZodObject;

/** One agent function: the form a file in `functions/` fills in. */
export interface FunctionDefinition<S extends ParameterSchema = ParameterSchema, R = unknown> {
  /** What the function does and when the agent should call it. */
  description: string;
  /** The arguments, each with a `.describe()` the model reads. */
  parameters: S;
  /** Does the work; its return value is sent to the agent as JSON. */
  handler: (args: z.output<S>, context: FunctionContext) => R | Promise<R>;
  /** Time limit in milliseconds (default 10 000); the signal fires and the agent gets a 504. */
  timeoutMs?: number;
  /** Log argument values too (default false: they may hold personal data). */
  logArguments?: boolean;
  /**
   * Count calls against the FUNCTION_RATE_LIMIT binding (wrangler.toml), for functions that spend
   * money (a paid API): over the limit the agent gets a 429. `key: 'caller'` counts per caller IP.
   */
  rateLimit?: RateLimitOption;
  /**
   * Secrets the handler reads from `env` (API keys). The manifest carries them; `npm run secrets`
   * checks that each is set before deploy and puts each; `npm run secrets -- list` lists them.
   * @example secrets: ['SHOP_API_KEY']
   */
  secrets?: readonly string[];
  /** Plain settings the handler reads from `env` (wrangler.toml [vars] or secrets), checked like `secrets`. */
  vars?: readonly string[];
  /** What an MCP client may assume about a call (served with the tool on `/mcp`). */
  annotations?: FunctionAnnotations;
  /**
   * `read` for a look-up; `write` (the default, or `read` when annotations say readOnlyHint) for
   * anything that changes the world, whose repeats within a conversation do not run again.
   */
  effect?: Effect;
  /** How a write's repeats are recognised and for how long; `false`: every call runs. */
  dedupe?: DedupeOption<z.output<S>> | false;
  /**
   * Answer the agent at once and finish later, messaging the customer the result.
   * @example later: { answerWithinMs: 2500, interim: 'Checking with the warehouse; a message follows.', message: (r) => r.summary }
   */
  later?: LaterOption<z.output<S>, R>;
  /**
   * A person approves before the handler runs (docs/functions.md "Approval").
   * @example approval: { when: (a) => a.amountCents > 10_000, ask: (a) => `Refund ${a.amountCents / 100} EUR on ${a.orderNumber}?`, message: (r) => r.summary, denied: 'The refund was not approved.', expired: 'Nobody could approve it in time.' }
   */
  approval?: ApprovalOption<z.output<S>, R>;
}

/** A definition of any schema, as the runtime and the registry hold them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds handlers of every argument type
export type AnyFunctionDefinition = FunctionDefinition<ParameterSchema, any>;

/**
 * Declares an agent function. An identity helper: it exists so the handler's argument type is
 * inferred from the schema.
 * @example
 * export default defineFunction({
 *   description: 'Greets a customer by name. Call it when the customer says hello.',
 *   parameters: z.object({ name: z.string().describe("The customer's first name") }),
 *   handler: ({ name }) => ({ greeting: `Hello, ${name}!` }),
 * });
 */
export const defineFunction = <S extends ParameterSchema, R>(
  definition: FunctionDefinition<S, R>,
): FunctionDefinition<S, R> => definition;

/** How long a write's repeats are recognised by default, in milliseconds. */
export const DEFAULT_DEDUPE_WINDOW_MS = 600_000;

/** Default time limit of a handler, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Default limit of a request body, in bytes. */
export const DEFAULT_BODY_LIMIT: number = 64 * 1024;

/** What a declared secret or var may be called: an environment variable name. */
export const SETTING_NAME: RegExp = /^[A-Z][A-Z0-9_]{0,63}$/;
