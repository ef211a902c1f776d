import type { z } from 'zod';
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
  /** The raw request, for anything the arguments do not carry (platform-added fields, headers). */
  request: Request;
  /** The one structured logger, already bound to this function and request. */
  log: Logger;
  /**
   * The platform client, configured from PLATFORM_BASE_URL and PLATFORM_API_KEY and aborted with
   * `signal`; created on first use, a 503 naming the missing secret when either is unset.
   * @example await context.platform.contacts.create({ name, phone, channel: 'whatsapp' })
   */
  readonly platform: PlatformClient;
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

/** Default time limit of a handler, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/** Default limit of a request body, in bytes. */
export const DEFAULT_BODY_LIMIT: number = 64 * 1024;

/** What a declared secret or var may be called: an environment variable name. */
export const SETTING_NAME: RegExp = /^[A-Z][A-Z0-9_]{0,63}$/;
