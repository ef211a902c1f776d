// The call side of a `later` function: the handler runs as usual, and if it has not answered
// within answerWithinMs its work is handed to the DeferredCall workflow (src/conversations/workflow.ts)
// and the agent gets the interim answer, or an MCP client that takes tasks gets the task to follow.
// Off (the call simply runs) without a contact and channel to message nor a task client, or
// without the workflow binding: nothing is promised that cannot be kept.
import { disposeHandle } from '../disposeHandle.ts';
import type { RegisteredFunction } from '../registry.ts';
import { isThenable } from '../thenable.ts';
import { cancelFollowUp } from './followUpMark.ts';
import type { DeferredParams } from './params.ts';
import type { CallScope } from './scope.ts';
import { newTaskId, TaskCreated, taskInstanceId } from './task.ts';

/** The answer the agent gets when the work goes on: `message` is the author's interim text. */
export interface PendingAnswer {
  status: 'pending';
  message: string;
  followUp: string;
}

const FOLLOW_UP_NOTE =
  'The result will reach the customer as a message in this conversation; do not call this function again for it.';

/**
 * How long before answerWithinMs the instance is created: creating one takes tens of ms, but up to
 * 300 ms when several are created at once on a loaded machine, and the interim waits for it.
 */
const CREATE_LEAD_MS = 400;
/** The most of answerWithinMs the lead may take: work that ends earlier never creates an instance. */
const CREATE_LEAD_SHARE = 0.6;

/** `promise`'s outcome if it settles within `ms`, else undefined. */
const within = async <T>(promise: Promise<T>, ms: number): Promise<T | undefined> => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeUp = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  try {
    return await Promise.race([promise, timeUp]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
};

/** Workflow instance id of a call: one per call, so a second create of the same call is refused. */
export const instanceIdOf = (requestId: string): string => `call-${requestId}`;

/**
 * Runs `run` (the handler under its time limit), answering `interim` past answerWithinMs while the
 * work goes on in a workflow instance.
 * @example return runLater(fn, inv, args, () => runWithTimeout(fn, args, inv))
 */
export const runLater = async (
  fn: RegisteredFunction,
  inv: CallScope,
  args: Record<string, unknown>,
  run: () => unknown,
): Promise<unknown> => {
  const later = fn.policy?.later as NonNullable<NonNullable<RegisteredFunction['policy']>['later']>;
  const { conversation, task } = inv;
  const channel = conversation?.channel;
  const workflow = (inv.env as { DEFERRED_CALLS?: Workflow<DeferredParams> }).DEFERRED_CALLS;
  if ((!channel && !task) || !workflow) {
    const reason = !workflow ? 'no_workflow_binding' : !conversation ? 'no_conversation' : 'no_channel';
    inv.log.info('later_off', { reason });
    return run();
  }
  const result = run();
  if (!isThenable(result)) return result;
  const settled = Promise.resolve(result).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  const done = (outcome: { value: unknown } | { error: unknown }) => {
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  };
  // answerWithinMs counts from the call's arrival (its deadline less the time limit), and both
  // waits aim at that instant: a timer that fires late on a busy isolate does not delay the next.
  const arrived = (inv.deadline ?? Date.now() + fn.manifest.timeoutMs) - fn.manifest.timeoutMs;
  const dueAt = arrived + later.answerWithinMs;
  // The instance is created a little before answerWithinMs, so the interim goes out on time.
  const lead = Math.min(CREATE_LEAD_MS, Math.floor(later.answerWithinMs * CREATE_LEAD_SHARE));
  const early = await within(settled, dueAt - lead - Date.now());
  if (early) return done(early);
  const now = Date.now();
  // A task (MCP) keeps its outcome for its client; a platform call messages its contact.
  const taskId = task && newTaskId(now);
  const to = conversation && channel ? { ...conversation, channel } : undefined;
  const id = task && taskId ? await taskInstanceId(task.owner, taskId) : instanceIdOf(inv.requestId);
  const params: DeferredParams = {
    name: fn.name,
    args: JSON.parse(JSON.stringify(args)) as Record<string, unknown>,
    ...(taskId ? { task: { createdAt: now } } : { conversation: to }),
    requestId: inv.requestId,
  };
  const creating = workflow.create({ id, params }).then(
    (instance) => {
      disposeHandle(instance);
      return true;
    },
    (error: unknown) => {
      // Nothing will finish the work later: the call keeps waiting for it, as any call does.
      inv.log.error('later_unavailable', { error: error instanceof Error ? error.name : typeof error });
      return false;
    },
  );
  const inTime = await within(settled, dueAt - Date.now());
  const created = await creating;
  if (!created) return done(await settled);
  const terminate = () =>
    inv.ctx.waitUntil(
      workflow
        .get(id)
        .then((instance) => instance.terminate().finally(() => disposeHandle(instance)))
        .catch(() => {}),
    );
  if (inTime && task) {
    // Done in time after all: the answer itself (no one will read the task).
    terminate();
    return done(inTime);
  }
  if (inTime) {
    // Done in time after all: the instance must send nothing (and need not run).
    if (await cancelFollowUp(inv.env, id).catch(() => false)) {
      terminate();
      return done(inTime);
    }
  }
  // The workflow does the work from the start, under its retries: this run stops here.
  inv.stop?.(new DOMException('The work goes on as deferred work', 'AbortError'));
  settled.catch(() => {});
  inv.log.info(task ? 'call_as_task' : 'call_deferred', { answerWithinMs: later.answerWithinMs });
  if (taskId) return new TaskCreated(taskId, now);
  const answer: PendingAnswer = { status: 'pending', message: later.interim, followUp: FOLLOW_UP_NOTE };
  return answer;
};
