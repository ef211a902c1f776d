// The functions the Worker serves, each translated once per isolate on first use, so start-up
// stays flat however many functions there are.

import type { AnyFunctionDefinition } from './define.ts';
import { type Env, EXPLAINS, type WithProcess } from './env.ts';
import type { CallPolicy } from './policy.ts';
import { DefinitionError, type FunctionManifest, translateFunction, withoutConversations } from './schema/describe.ts';
import type { ParameterInfo } from './schema/parameters.ts';
import { isUnbuilt } from './unbuilt.ts';

/** A definition with what the runtime derives from it. */
export interface RegisteredFunction {
  name: string;
  definition: AnyFunctionDefinition;
  parameters: ParameterInfo[];
  /** Top-level fields that are z.date(), coerced from ISO strings. */
  dates: Set<string>;
  manifest: FunctionManifest;
  /** Read or write, how repeats are recognised, whether it may finish later: with the conversations feature only. */
  policy?: CallPolicy;
  /** What counts its calls: createWorker's `rateLimits`, for a function that declares `rateLimit`. */
  limit?: RateLimits;
}

/** createWorker's `rateLimits` option (src/ratelimit.ts): counts one call of a function that declares `rateLimit`. */
export type RateLimits = (fn: RegisteredFunction, request: Request, env: Env) => Promise<void>;

/** Looks functions up by name; translation runs on first use of each. */
export interface Registry {
  get(name: string): RegisteredFunction | undefined;
  names(): string[];
  /**
   * Under `npm run dev`: whether `name` is a function file that does not build (src/unbuilt.ts).
   * Absent from a production bundle, where nothing is marked.
   */
  unbuilt?(name: string): boolean;
}

/**
 * A registry over `{ name: definition }` (generated/functions.ts lists functions/).
 * @example createRegistry({ lookup_warranty }).get('lookup_warranty')?.manifest.parameters
 */
export const createRegistry = (
  definitions: Record<string, AnyFunctionDefinition>,
  /** The conversations feature's policy of each definition (src/conversations/check.ts), when it is on. */
  policyOf?: (definition: AnyFunctionDefinition, parameterNames: readonly string[]) => CallPolicy,
  /** createWorker's `rateLimits`: without it, a definition that declares `rateLimit` is refused. */
  limit?: RateLimits,
): Registry => {
  const compiled = new Map<string, RegisteredFunction>();
  return {
    get(name) {
      const cached = compiled.get(name);
      if (cached) return cached;
      if (!Object.hasOwn(definitions, name)) return undefined;
      const definition = definitions[name] as AnyFunctionDefinition;
      // Without the feature, a definition that needs approval is refused: it would run unapproved.
      const translated = translateFunction(name, definition, policyOf ?? withoutConversations);
      // Refused rather than run uncounted: the author asked for a limit, so an unlimited run is the bill they feared.
      if (definition.rateLimit && !limit) {
        throw new DefinitionError(
          EXPLAINS
            ? `Function "${name}": rateLimit needs createWorker's rateLimits option (rateLimits from agent-functions/worker in worker.ts).`
            : `Function "${name}": rateLimit needs createWorker's rateLimits option.`,
        );
      }
      const entry: RegisteredFunction = {
        name,
        definition,
        ...translated,
        ...(definition.rateLimit ? { limit } : {}),
      };
      compiled.set(name, entry);
      return entry;
    },
    names: () => Object.keys(definitions).sort(),
    // Spelled out, so a production bundle drops it (src/env.ts).
    ...((globalThis as WithProcess).process?.env.NODE_ENV !== 'production'
      ? { unbuilt: (name: string) => isUnbuilt(definitions, name) }
      : {}),
  };
};
