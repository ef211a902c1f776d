// What deferred work needs from the Worker that created it: the functions, the platform client and
// the project's check before any message to a customer. createWorker sets it when the module is
// evaluated, before any workflow instance runs in that isolate.
import type { Env } from '../env.ts';
import type { PlatformClient } from '../platform/client/client.ts';
import type { Registry } from '../registry.ts';

/** The project's check before any message to a customer (an opt-out list): false means do not send. */
export type MayMessage = (env: Env, to: { contactId: string; channel: string }) => boolean | Promise<boolean>;

/** The Worker's side of deferred work. */
export interface DeferredRuntime {
  registry: Registry;
  /** createWorker's `platform` option (the same type as invoke.ts's PlatformFactory). */
  platform: ((env: Env, signal: AbortSignal) => PlatformClient) | undefined;
  mayMessage: MayMessage | undefined;
}

// Usually one; tests create several Workers in one isolate.
const runtimes: DeferredRuntime[] = [];

/** Called by createWorker, once per Worker created in the isolate. */
export const setDeferredRuntime = (runtime: DeferredRuntime): void => {
  runtimes.push(runtime);
};

/** The latest Worker serving `name` as a `later` function, or undefined when none does (any more). */
export const deferredRuntimeFor = (name: string): DeferredRuntime | undefined =>
  runtimes.findLast((runtime) => runtime.registry.get(name)?.policy?.later !== undefined);
