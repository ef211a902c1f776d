// What deferred work needs from the Worker that created it: its functions, the pipeline they run
// in, its accounts and the project's check before any message to a customer. createWorker sets it
// when the module is evaluated, before any workflow instance runs in that isolate.
import type { AccountResolver, ResolvedAccount } from '../accounts/resolve.ts';
import type { ArgumentSource, CallSetup } from '../call.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../log.ts';
import type { RegisteredFunction, Registry } from '../registry.ts';

/** The project's check before any message to a customer (an opt-out list): false means do not send. */
export type MayMessage = (
  env: Env,
  to: { account: string; contactId: string; channel: string },
) => boolean | Promise<boolean>;

/** The Worker's side of deferred work. */
export interface DeferredRuntime {
  registry: Registry;
  /** The Worker's pipeline (execute of src/invoke.ts, with its platform option). */
  execute: (fn: RegisteredFunction, setup: CallSetup, source: ArgumentSource) => Promise<unknown>;
  /** Finds an account by name: its settings and platform client. */
  accounts: AccountResolver;
  mayMessage: MayMessage | undefined;
}

// Usually one; tests create several Workers in one isolate.
const runtimes: DeferredRuntime[] = [];

/** Called by createWorker, once per Worker created in the isolate. */
export const setDeferredRuntime = (runtime: DeferredRuntime): void => {
  runtimes.push(runtime);
};

/** `name` as `runtime` serves it; undefined when it does not, or refuses its definition (a test's broken Worker). */
export const servedBy = (runtime: DeferredRuntime, name: string): RegisteredFunction | undefined => {
  try {
    return runtime.registry.get(name);
  } catch {
    return undefined;
  }
};

/** The Workers serving `name` as a `later` function, the latest first (none: deployed away). */
export const deferredRuntimesFor = (name: string): DeferredRuntime[] =>
  runtimes.filter((runtime) => servedBy(runtime, name)?.policy?.later !== undefined).reverse();

/**
 * The first of `candidates` that can act in the account named `accountName`, with that account:
 * a Worker a test made with accounts of its own never takes over another Worker's work. Undefined
 * when none can (the account removed since the call).
 * @example const found = await actingIn(deferredRuntimesFor(name), env, account, log)
 */
export const actingIn = async <R extends DeferredRuntime>(
  candidates: readonly R[],
  env: Env,
  accountName: string | undefined,
  log: Logger,
): Promise<{ runtime: R; account: ResolvedAccount } | undefined> => {
  for (const runtime of candidates) {
    const account = await (async () => runtime.accounts(env, accountName, log))().catch(() => undefined);
    if (account) return { runtime, account };
  }
  return undefined;
};
