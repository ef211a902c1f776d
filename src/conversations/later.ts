// The call side of a `later` function: the handler runs as usual, and if it has not answered
// within answerWithinMs its work is handed to the DeferredCall workflow (src/conversations/workflow.ts)
// and the agent gets the interim answer, or an MCP client that takes tasks gets the task to follow.
// Off (the call simply runs) without a contact and channel to message nor a task client, or
// without the workflow binding: nothing is promised that cannot be kept.
import { type Call, isThenable, TaskCreated } from '../call.ts';
import { disposeHandle } from '../disposeHandle.ts';
import type { RegisteredFunction } from '../registry.ts';
import { claimDeferral, type DeferralClaim } from './deferral.ts';
import { cancelFollowUp } from './followUpMark.ts';
import type { DeferredParams } from './params.ts';
import { newTaskId, TASK_TTL_MS, taskInstanceId } from './task.ts';

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
/** More lead for a platform call: its claim, which spends one of its contact's follow-ups, comes first (deferral.ts). */
const CLAIM_LEAD_MS = 200;
/** How long past its own due time a repeat waits for the first call's decision. */
const REPEAT_GRACE_MS = 1_000;
/**
 * The most of answerWithinMs the lead may take: work that ends earlier never creates an instance.
 * For a short answerWithinMs (500 ms: 400 ms of lead) twenty calls at once on two cores still fit
 * their claims and creates before it; at 60% they did not (docs/performance.md). Work that ends
 * inside the lead cancels its instance and gives its follow-up back.
 */
const CREATE_LEAD_SHARE = 0.8;

/**
 * How long before answerWithinMs the interim is aimed (at most a tenth of it): what a timer firing
 * late on a busy isolate and the answer's writing take, so the interim is on the wire within
 * answerWithinMs rather than just past it (docs/performance.md "A deferred call's first answer").
 */
const ON_THE_WIRE_MS = 40;

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

/**
 * A time every `later` function answers within instead of its own answerWithinMs, while set: only
 * `settleDeferred(act, { answerWithinMs })` of agent-functions/testing sets it, around `act`, so a
 * test sees a deferral without waiting for its function's own answerWithinMs. No request reaches it.
 */
export const answerWithinForTests: { ms?: number } = {};

/**
 * How long Workflows keep a deferred call's instance once it ended (its arguments, conversation ids
 * and follow-up text): a day to look into one that went well, three when it failed (docs/security.md).
 */
export const DEFERRED_RETENTION = { successRetention: '1 day', errorRetention: '3 days' } as const;
/** A task's instance is kept no longer than the task is readable. */
const TASK_RETENTION = { successRetention: TASK_TTL_MS, errorRetention: TASK_TTL_MS } as const;

/** Workflow instance id of a call: one per call, so a second create of the same call is refused. */
export const instanceIdOf = (requestId: string): string => `call-${requestId}`;

/**
 * What a deferral claim (deferral.ts) means for this call: a repeat answers the interim while the
 * first call's work goes on; no follow-up left or no verdict: the call answers itself; else undefined (defer it).
 */
const claimAnswer = (claim: DeferralClaim, inv: Call, settled: Promise<unknown>): 'interim' | 'itself' | undefined => {
  if (claim.verdict === 'repeat') {
    inv.stop(new DOMException('A repeat of a deferred call', 'AbortError'));
    // Its record (src/record.ts): answered with the interim, the first call's work goes on.
    if (inv.mark) {
      inv.mark.deferred = true;
      inv.mark.repeated = true;
    }
    settled.catch(() => {});
    inv.log.info('call_deferred_repeat', { deferred: claim.instanceId });
    return 'interim';
  }
  if (claim.verdict === 'no_follow_up') {
    // This contact had its follow-ups for now: the call answers itself, and nobody is messaged.
    inv.log.warn('later_off', { reason: 'follow_up_budget' });
    return 'itself';
  }
  if (claim.verdict === 'undecided') {
    // Nothing says whether another call defers it: no promise of a message, the call runs.
    inv.log.info('later_off', { reason: claim.reason });
    return 'itself';
  }
  return undefined;
};

/** The instance's parameters: a task's (`taskCreatedAt` set) keeps its outcome, a platform call's names its conversation. */
const paramsOf = (
  fn: RegisteredFunction,
  inv: Call,
  args: Record<string, unknown>,
  taskCreatedAt: number | undefined,
  to: DeferredParams['conversation'],
): DeferredParams => ({
  name: fn.name,
  account: inv.account.name,
  args: JSON.parse(JSON.stringify(args)) as Record<string, unknown>,
  ...(taskCreatedAt !== undefined ? { task: { createdAt: taskCreatedAt } } : { conversation: to }),
  requestId: inv.requestId,
});

/** Creates the workflow instance: when it was created, or undefined when it could not be (logged). */
const createInstance = (
  workflow: Workflow<DeferredParams>,
  id: string,
  params: DeferredParams,
  retention: typeof DEFERRED_RETENTION | typeof TASK_RETENTION,
  inv: Call,
): Promise<number | undefined> =>
  workflow.create({ id, params, retention }).then(
    (instance) => {
      disposeHandle(instance);
      return Date.now();
    },
    (error: unknown) => {
      // Nothing will finish the work later: the call keeps waiting for it, as any call does.
      inv.log.error('later_unavailable', { error: error instanceof Error ? error.name : typeof error });
      return undefined;
    },
  );

/** Ends an instance whose work was answered in time after all, without holding up the answer. */
const terminateInstance = (inv: Call, workflow: Workflow<DeferredParams>, id: string): void =>
  inv.ctx.waitUntil(
    workflow
      .get(id)
      .then((instance) => instance.terminate().finally(() => disposeHandle(instance)))
      .catch(() => {}),
  );

/**
 * Runs `run` (the handler under its time limit), answering `interim` past answerWithinMs while the
 * work goes on in a workflow instance.
 * @example return runLater(fn, call, args, run)
 */
export const runLater = async (
  fn: RegisteredFunction,
  inv: Call,
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
  // answerWithinMs counts from when the arguments were in, so a body sent slowly cannot push a fast
  // call into deferral; both waits aim at that instant: a timer that fires late on a busy isolate
  // does not delay the next.
  const answerWithinMs = answerWithinForTests.ms ?? later.answerWithinMs;
  const dueAt = inv.readyAt + answerWithinMs - Math.min(ON_THE_WIRE_MS, Math.floor(answerWithinMs / 10));
  // The instance is created a little before answerWithinMs, so the interim goes out on time.
  const lead = Math.min(CREATE_LEAD_MS + (task ? 0 : CLAIM_LEAD_MS), Math.floor(answerWithinMs * CREATE_LEAD_SHARE));
  const early = await within(settled, dueAt - lead - Date.now());
  if (early) return done(early);
  const pending = (): PendingAnswer => ({ status: 'pending', message: later.interim, followUp: FOLLOW_UP_NOTE });
  const to = conversation && channel ? { ...conversation, channel } : undefined;
  // A platform call's repeats in its conversation share one instance and one follow-up (deferral.ts).
  let claim: DeferralClaim | undefined;
  // Where a late interim's time went, in its log line (docs/performance.md, "Where the time goes").
  const claimStart = Date.now();
  if (!task && to) {
    // A first call still deciding does so just after its own due time: wait for it a little past ours.
    claim = await claimDeferral(fn, inv, to, args, dueAt - claimStart + REPEAT_GRACE_MS);
    const answer = claimAnswer(claim, inv, settled);
    if (answer === 'interim') return pending();
    if (answer === 'itself') return done(await settled);
  }
  const first = claim?.verdict === 'first' ? claim : undefined;
  const now = Date.now();
  // A task (MCP) keeps its outcome for its client; a platform call messages its contact.
  const taskId = task && newTaskId(now);
  const id = task && taskId ? await taskInstanceId(task.owner, taskId) : instanceIdOf(inv.requestId);
  const params = paramsOf(fn, inv, args, taskId ? now : undefined, to);
  const creating = createInstance(workflow, id, params, task ? TASK_RETENTION : DEFERRED_RETENTION, inv);
  const inTime = await within(settled, dueAt - Date.now());
  const createdAt = await creating;
  if (createdAt === undefined) {
    await first?.release().catch(() => {});
    return done(await settled);
  }
  const terminate = () => terminateInstance(inv, workflow, id);
  if (inTime && task) {
    // Done in time after all: the answer itself (no one will read the task).
    terminate();
    return done(inTime);
  }
  if (inTime) {
    // Done in time after all: the instance must send nothing (and need not run).
    if (await cancelFollowUp(inv.env, id).catch(() => false)) {
      terminate();
      await first?.release().catch(() => {});
      return done(inTime);
    }
  }
  // Repeats within the window now share this instance; if this cannot be kept, a repeat runs plainly.
  if (first) inv.ctx.waitUntil(first.keep(id).catch(() => {}));
  // The workflow does the work from the start, under its retries: this run stops here.
  inv.stop(new DOMException('The work goes on as deferred work', 'AbortError'));
  settled.catch(() => {});
  if (inv.mark) inv.mark.deferred = true;
  inv.log.info(task ? 'call_as_task' : 'call_deferred', {
    answerWithinMs,
    // The claim's and the create's round trips, and how long past its due time the interim left.
    claimMs: now - claimStart,
    createMs: createdAt - now,
    lateMs: Math.max(0, Date.now() - dueAt),
  });
  if (taskId) return new TaskCreated(taskId, now);
  return pending();
};
