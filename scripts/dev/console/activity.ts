// The console's one timeline: its own calls, and what the local platform did (calls it made as the
// agent, event deliveries and each webhook's answer, messages), each message beside the call or
// delivery that caused it. A message belongs to the call or delivery during which it was sent;
// one sent later (a follow-up, or an event handler that runs from the queue after the delivery was
// answered) belongs to the latest earlier call or delivery about the same contact, except a deferred
// call's follow-up, which the Worker's log line of it ties to that very call (another call about the
// same contact may have been made meanwhile). The Worker's own log lines (dev reads them from
// wrangler's output) add the calls made straight to it (curl, an MCP client), what its handler made
// of each delivery, and what became of a deferred call's work and follow-up.
import type { CallRecord } from 'agent-functions/worker';
import type { ActivityAnswer, ActivityMessage } from '../../platform/routes/activity.ts';
import type { DeliveryActivity } from '../../platform/state.ts';
import type { DeferredEvent, WorkerLine } from '../workerLog.ts';
import type { LoggedCall } from './calls.ts';

/** A message as the console shows it. */
export interface ShownMessage {
  id: string;
  contactId: string;
  /** The contact's name on the local platform, when it has the contact. */
  contactName?: string;
  channel: string;
  text: string;
  direction: 'outbound' | 'inbound';
  at: number;
  /** Sent after the call or delivery had been answered: this many ms after its end. */
  afterMs?: number;
}

export type ActivityItem =
  | {
      kind: 'call';
      /**
       * Who made it: the console's form, the local platform playing the agent (npm run platform --
       * call), or someone calling the Worker straight (curl, an MCP client), known from its log.
       */
      source: 'console' | 'platform' | 'worker';
      /** The Worker's id of its answer (its record's), when known. */
      requestId?: CallRecord['requestId'];
      startedAt: number;
      endedAt: number;
      name: string;
      arguments: unknown;
      status: CallRecord['status'];
      durationMs: CallRecord['durationMs'];
      body: string;
      messages: ShownMessage[];
      /** A deferred call's steps from the Worker's log (call_deferred, follow_up_sent, ...), oldest first. */
      deferred?: Array<{ event: DeferredEvent; at: number }>;
      /** The answer is an earlier call's, stored for repeats in the conversation: nothing ran (call_repeated). */
      repeated?: true;
      /** The conversation the call came from, when it had one. */
      conversationId?: string;
    }
  | {
      kind: 'delivery';
      startedAt: number;
      endedAt: number;
      type: string;
      contactId: string | undefined;
      /** The customer's message that caused a message.received delivery. */
      trigger: ShownMessage | undefined;
      deliveries: DeliveryActivity['deliveries'];
      /** What the Worker's handler made of it, from the Worker's log (event_handled, event_failed, ...). */
      handling: Array<{ event: string; at: number }>;
      messages: ShownMessage[];
    }
  | { kind: 'message'; startedAt: number; message: ShownMessage };

/**
 * An item of the console's timeline: with several accounts, it names the one it happened in; `null`
 * for a call the Worker refused before an account was known (an unknown account: "refused: unknown account").
 */
export type ConsoleItem = ActivityItem & { account?: string | null };

/** How long after a call or delivery a message about the same contact is still its consequence. */
const FOLLOW_UP_MS = 10 * 60_000;
/** Clock slack between the console's and the platform's stamps (same process in dev; ms apart). */
const SLACK_MS = 5;

const shown = (message: ActivityMessage): ShownMessage => ({
  id: String(message.id),
  contactId: String(message.contactId),
  ...(typeof message.contactName === 'string' ? { contactName: message.contactName } : {}),
  channel: String(message.channel),
  text: String(message.text),
  direction: message.direction === 'inbound' ? 'inbound' : 'outbound',
  at: message.at,
});

/** The contact a call is about: the platform adds `contactId` beside the arguments (contract §9). */
const contactOfCall = (args: unknown): string | undefined => {
  const value = (args as { contactId?: unknown } | null)?.contactId;
  return typeof value === 'string' ? value : undefined;
};

type Cause = Exclude<ActivityItem, { kind: 'message' }> & { contact: string | undefined };

/**
 * Gives each call the deferred steps the Worker logged under its request id, and ties each follow-up
 * it logged as sent to the message it sent: the latest outbound message to the call's contact, since
 * the call began, up to that log line. Message id to its call.
 */
const claimFollowUps = (causes: Cause[], messages: ShownMessage[], worker: WorkerLine[]): Map<string, Cause> => {
  const claimed = new Map<string, Cause>();
  for (const cause of causes) {
    if (cause.kind !== 'call' || !cause.requestId) continue;
    const steps = worker.flatMap((line) =>
      line.kind === 'deferred' && line.requestId === cause.requestId ? [{ event: line.event, at: line.at }] : [],
    );
    if (steps.length === 0) continue;
    cause.deferred = steps;
    if (steps.some((step) => step.event === 'call_repeated')) cause.repeated = true;
    for (const step of steps) {
      if (step.event !== 'follow_up_sent') continue;
      const sent = messages
        .filter(
          (message) =>
            message.direction === 'outbound' &&
            !claimed.has(message.id) &&
            (cause.contact === undefined || message.contactId === cause.contact) &&
            cause.startedAt - SLACK_MS <= message.at &&
            message.at <= step.at + SLACK_MS,
        )
        .toSorted((a, b) => b.at - a.at)[0];
      if (sent) claimed.set(sent.id, cause);
    }
  }
  return claimed;
};

/** The console's own calls, as causes. */
const consoleCauses = (calls: LoggedCall[]): Cause[] =>
  calls.map((call) => ({
    kind: 'call',
    source: 'console',
    startedAt: call.startedAt,
    endedAt: call.endedAt,
    name: call.name,
    arguments: call.arguments,
    status: call.status,
    durationMs: call.durationMs,
    body: call.body,
    messages: [],
    contact: call.conversation?.contactId ?? contactOfCall(call.arguments),
    ...(call.requestId ? { requestId: call.requestId } : {}),
    ...(call.conversation ? { conversationId: call.conversation.conversationId } : {}),
  }));

type Delivery = Extract<ActivityItem, { kind: 'delivery' }>;

/** One platform delivery as a cause, with the Worker's handling steps of it. */
const deliveryCause = (
  record: Exclude<ActivityAnswer['activity'][number], { kind: 'call' }>,
  worker: WorkerLine[],
): Delivery & { messages: ShownMessage[]; contact: string | undefined } => ({
  kind: 'delivery' as const,
  startedAt: record.startedAt,
  endedAt: record.endedAt,
  type: record.type,
  contactId: record.contactId,
  trigger: undefined,
  deliveries: record.deliveries,
  handling: worker.flatMap((line) =>
    line.kind === 'handling' && record.eventId !== undefined && line.deliveryId === `id:${record.eventId}`
      ? [{ event: line.event, at: line.at }]
      : [],
  ),
  messages: [],
  contact: record.contactId,
});

/** The platform's calls as the agent and its deliveries, as causes; `triggers` maps a message id to the delivery it caused. */
const platformCauses = (
  platform: ActivityAnswer | undefined,
  worker: WorkerLine[],
  triggers: Map<string, Delivery>,
) => {
  const causes: Cause[] = [];
  for (const record of platform?.activity ?? []) {
    if (record.kind === 'call') {
      causes.push({
        kind: 'call',
        source: 'platform',
        startedAt: record.startedAt,
        endedAt: record.endedAt,
        name: record.name,
        arguments: record.arguments,
        status: record.status ?? 0,
        durationMs: record.durationMs,
        body: record.body,
        messages: [],
        contact: record.contactId ?? contactOfCall(record.arguments),
        ...(record.requestId ? { requestId: record.requestId } : {}),
      });
    } else {
      const delivery = deliveryCause(record, worker);
      causes.push(delivery);
      if (record.messageId) triggers.set(record.messageId, delivery);
    }
  }
  return causes;
};

/** Calls the Worker logged that neither the console nor the platform made: curl, an MCP client. */
const workerOnlyCauses = (causes: Cause[], worker: WorkerLine[]): Cause[] => {
  const known = new Set(causes.flatMap((cause) => (cause.kind === 'call' && cause.requestId ? [cause.requestId] : [])));
  return worker.flatMap((line): Cause[] =>
    line.kind !== 'invocation' || known.has(line.requestId)
      ? []
      : [
          {
            kind: 'call',
            source: 'worker',
            requestId: line.requestId,
            startedAt: line.at - line.durationMs,
            endedAt: line.at,
            name: line.name,
            arguments: undefined,
            status: line.status,
            durationMs: line.durationMs,
            body: '',
            messages: [],
            contact: undefined,
          },
        ],
  );
};

/**
 * The cause a message belongs to: the follow-up that sent it, else the latest cause running then
 * (of the same contact first), else the latest of its contact that ended shortly before.
 */
const ownerOf = (message: ShownMessage, causes: Cause[], followUps: Map<string, Cause>): Cause | undefined => {
  const latest = (candidates: Cause[]) => candidates.toSorted((a, b) => b.startedAt - a.startedAt)[0];
  const during = causes.filter((c) => c.startedAt - SLACK_MS <= message.at && message.at <= c.endedAt + SLACK_MS);
  return (
    followUps.get(message.id) ??
    latest(during.filter((c) => c.contact === message.contactId)) ??
    latest(during) ??
    latest(
      causes.filter(
        (c) => c.contact === message.contactId && c.startedAt <= message.at && message.at - c.endedAt <= FOLLOW_UP_MS,
      ),
    )
  );
};

/**
 * The timeline, newest first.
 * @example mergeActivity(log.list(), await platformActivity())
 */
export const mergeActivity = (
  calls: LoggedCall[],
  platform: ActivityAnswer | undefined,
  worker: WorkerLine[] = [],
): ActivityItem[] => {
  const triggers = new Map<string, Delivery>();
  const causes: Cause[] = [...consoleCauses(calls), ...platformCauses(platform, worker, triggers)];
  causes.push(...workerOnlyCauses(causes, worker));
  const messages = (platform?.messages ?? []).map(shown);
  const followUps = claimFollowUps(causes, messages, worker);
  const loose: ActivityItem[] = [];
  for (const message of messages) {
    const triggered = triggers.get(message.id);
    if (triggered) {
      triggered.trigger = message;
      continue;
    }
    const owner = ownerOf(message, causes, followUps);
    if (!owner) {
      loose.push({ kind: 'message', startedAt: message.at, message });
      continue;
    }
    const late = message.at - owner.endedAt;
    owner.messages.push(late > SLACK_MS ? { ...message, afterMs: late } : message);
  }
  const items: ActivityItem[] = [...causes.map(({ contact: _contact, ...item }) => item as ActivityItem), ...loose];
  return items.toSorted((a, b) => b.startedAt - a.startedAt);
};
