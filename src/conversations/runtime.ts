// What deferred work needs from the Worker that created it: the functions, the platform client and
// the project's check before any message to a customer. createWorker sets it when the module is
// evaluated, before any workflow instance runs in that isolate.
import type { Env } from '../env.ts';
import type { PlatformFactory } from '../invoke.ts';
import type { Registry } from '../registry.ts';

/** The project's check before any message to a customer (an opt-out list): false means do not send. */
export type MayMessage = (env: Env, to: { contactId: string; channel: string }) => boolean | Promise<boolean>;

/** The Worker's side of deferred work. */
export interface DeferredRuntime {
  registry: Registry;
  platform: PlatformFactory | undefined;
  mayMessage: MayMessage | undefined;
}

let current: DeferredRuntime | undefined;

/** Called by createWorker: the last Worker created in an isolate is the one its workflows serve. */
export const setDeferredRuntime = (runtime: DeferredRuntime): void => {
  current = runtime;
};

/** The Worker's side of deferred work, or undefined when no Worker was created in this isolate. */
export const deferredRuntime = (): DeferredRuntime | undefined => current;
