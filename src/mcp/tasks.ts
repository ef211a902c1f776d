// A `later` function's deferred work as an MCP task (the tasks extension of the 2026-07-28
// specification, io.modelcontextprotocol/tasks): for a client that declares the extension on its
// request, a call still running past answerWithinMs answers a CreateTaskResult, and the client
// follows it with tasks/get (the result inlined once completed) or stops it with tasks/cancel. The
// work runs in the DeferredCall workflow (src/conversations/task.ts); a client without the extension
// gets the call's own answer, as from any function.
import { ProtocolError, ProtocolErrorCode, type Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { TaskCreated } from '../call.ts';
import { createdAtOf, TASK_TTL_MS, type TaskOutcome, taskInstanceId } from '../conversations/task.ts';
import type { DeferredOutcome } from '../conversations/workflow.ts';
import { disposeHandle } from '../disposeHandle.ts';
import type { Env } from '../env.ts';
import { toolResult } from './tools.ts';

/** The extension's identifier, in capabilities and in a request's client capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** How long a task stays readable from its creation: a day, enforced on every read; its instance's retention is as long. */
export { TASK_TTL_MS };
/** How often a client is asked to poll tasks/get. */
export const TASK_POLL_INTERVAL_MS = 1_000;

type Envelope = Record<string, unknown> | undefined;

/** Whether the request's client capabilities (its `_meta` envelope) declare the tasks extension. */
export const declaresTasks = (envelope: Envelope): boolean => {
  const capabilities = envelope?.[CLIENT_CAPABILITIES] as { extensions?: Record<string, unknown> } | undefined;
  return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined;
};

/** The workflow binding tasks run on, when the Worker has one. */
export const taskWorkflowOf = (env: Env): Workflow | undefined => (env as { DEFERRED_CALLS?: Workflow }).DEFERRED_CALLS;

/** The workflow an approval's task waits on (src/approval/workflow.ts), when the Worker has one. */
export const approvalWorkflowOf = (env: Env): Workflow | undefined => (env as { APPROVALS?: Workflow }).APPROVALS;

const iso = (ms: number) => new Date(ms).toISOString();

const envelopeOf = (created: number, updated: number) => ({
  createdAt: iso(created),
  lastUpdatedAt: iso(updated),
  ttlMs: TASK_TTL_MS,
  pollIntervalMs: TASK_POLL_INTERVAL_MS,
});

/**
 * The tools/call answer of a call that became a task: flat, `resultType: "task"`.
 * @example createTaskResult(new TaskCreated(taskId, Date.now())).status // 'working'
 */
export const createTaskResult = ({ taskId, createdAt }: TaskCreated) => ({
  resultType: 'task',
  taskId,
  status: 'working',
  ...envelopeOf(createdAt, createdAt),
  // The SDK checks every tools/call answer as a tool result (content required); the result itself
  // comes with tasks/get.
  content: [],
});

/** What tasks/get says of a finished task: a tool result (a refusal is one, with isError), or a failure. */
const finished = (outcome: TaskOutcome) => {
  if (outcome.ok) return { status: 'completed', result: toolResult({ ok: true, value: outcome.value }) };
  if ('failed' in outcome) {
    return {
      status: 'failed',
      error: { code: ProtocolErrorCode.InternalError, message: 'The work failed after its retries.' },
    };
  }
  return {
    status: 'completed',
    result: { isError: true, content: [{ type: 'text', text: outcome.message }] },
  };
};

const WORKING = new Set(['queued', 'running', 'waiting', 'paused', 'waitingForPause', 'unknown']);

/** The task's state from its workflow instance: working, completed (result), failed (error) or cancelled. */
const detailed = async (taskId: string, created: number, instance: WorkflowInstance) => {
  const { status, output } = await instance.status();
  const kept = (output as DeferredOutcome | undefined)?.task;
  if (status === 'complete' && kept) {
    return { taskId, ...finished(kept.outcome), ...envelopeOf(created, kept.finishedAt) };
  }
  if (WORKING.has(status)) return { taskId, status: 'working', ...envelopeOf(created, created) };
  if (status === 'terminated') return { taskId, status: 'cancelled', ...envelopeOf(created, created) };
  // Errored, or complete without an outcome (the function was deployed away): a failure.
  return {
    taskId,
    status: 'failed',
    error: { code: ProtocolErrorCode.InternalError, message: 'The work stopped without a result.' },
    ...envelopeOf(created, created),
  };
};

const TaskParams = z.object({ taskId: z.string().max(128) });
const UpdateParams = TaskParams.extend({ inputResponses: z.record(z.string(), z.unknown()).optional() });

/**
 * Serves the tasks extension on `server` for `owner`'s tasks: advertises it, and answers tasks/get,
 * tasks/cancel and tasks/update (nothing to update: no function asks for input) for the clients
 * that declare it. An unknown id, or another client's, is -32602 alike.
 * @example serveTasks(server, workflow, 'oauth:client-1')
 */
export const serveTasks = (server: Server, workflow: Workflow, owner: string, approvals?: Workflow): void => {
  server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  const find = async (taskId: string, envelope: Envelope) => {
    if (!declaresTasks(envelope)) {
      throw new ProtocolError(
        ProtocolErrorCode.MissingRequiredClientCapability,
        `Tasks need the ${TASKS_EXTENSION} extension in the request's client capabilities.`,
        { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
      );
    }
    const created = createdAtOf(taskId);
    // Past its ttlMs a task is gone, whatever Workflows still keep of its instance.
    const alive = created !== undefined && Date.now() < created + TASK_TTL_MS;
    const id = alive ? await taskInstanceId(owner, taskId) : undefined;
    // A deferred call's task, or else an approval's (the same id never names both).
    const instance =
      id === undefined ? undefined : await workflow.get(id).catch(() => approvals?.get(id).catch(() => undefined));
    if (created === undefined || !instance) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown task.');
    return { created, instance };
  };
  server.setRequestHandler('tasks/get', { params: TaskParams }, async ({ taskId }, ctx) => {
    const { created, instance } = await find(taskId, ctx.mcpReq.envelope);
    try {
      return await detailed(taskId, created, instance);
    } finally {
      disposeHandle(instance);
    }
  });
  server.setRequestHandler('tasks/cancel', { params: TaskParams }, async ({ taskId }, ctx) => {
    const { instance } = await find(taskId, ctx.mcpReq.envelope);
    try {
      const { status } = await instance.status();
      // Idempotent: a finished task stays as it ended.
      if (WORKING.has(status)) await instance.terminate();
      return {};
    } finally {
      disposeHandle(instance);
    }
  });
  server.setRequestHandler('tasks/update', { params: UpdateParams }, async ({ taskId }, ctx) => {
    disposeHandle((await find(taskId, ctx.mcpReq.envelope)).instance);
    return {};
  });
};
