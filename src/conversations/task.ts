// A deferred call that an MCP client follows as a task (the tasks extension of the MCP
// specification, 2026-07-28; docs/mcp.md "Tasks"): its work goes to the same DeferredCall workflow
// as a platform call's, which keeps the outcome for the client to read instead of messaging anyone.
// A task id names its workflow instance only together with the client that asked for it, so no
// other client can read or cancel it, and an instance of a platform call is never a task.
import { sha256Hex } from '../keys.ts';

/** How a task's work ended, as its workflow instance keeps it (failed: not even a refusal came back). */
export type TaskOutcome =
  | { ok: true; value: unknown }
  | { ok: false; status: number; code: string; message: string }
  | { ok: false; failed: true };

/** A new task id: its creation time (base 36 ms) and a random part no client can guess. */
export const newTaskId = (now: number): string => `${now.toString(36)}-${crypto.randomUUID()}`;

/** When task `taskId` was created (ms since the epoch), or undefined for an id this Worker never made. */
export const createdAtOf = (taskId: string): number | undefined => {
  const match = /^([0-9a-z]{1,11})-[0-9a-f-]{36}$/.exec(taskId);
  const ms = match?.[1] ? Number.parseInt(match[1], 36) : Number.NaN;
  return Number.isSafeInteger(ms) ? ms : undefined;
};

/**
 * The workflow instance of `owner`'s task `taskId`: another owner's id names another instance.
 * @example await taskInstanceId('oauth:client-1', taskId) // 'task-3f9a…' (45 characters)
 */
export const taskInstanceId = async (owner: string, taskId: string): Promise<string> =>
  `task-${(await sha256Hex(`${owner}\n${taskId}`)).slice(0, 40)}`;
