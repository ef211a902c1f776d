// GET /_emulator/activity: what the emulator did for one account, in one order (the shared
// sequence): calls it made as the agent, event deliveries with each webhook's answer, and every
// message (sent by a function or a handler through POST /v1/messages, or written in by a customer).
// Emulator-only, for the dev console; never part of the platform's API.
import { EmulatorError } from '../http.ts';
import { messageShape } from '../shapes.ts';
import { ACTIVITY_LIMIT, type AccountState, type ActivityRecord } from '../state.ts';

/**
 * One message as the activity lists it: its shape, its place in the sequence, its time in ms, and
 * the name of its contact (so the console can say "to Console customer", not only an id).
 */
export type ActivityMessage = ReturnType<typeof messageShape> & { seq: number; at: number; contactName?: string };

export interface ActivityAnswer {
  activity: ActivityRecord[];
  messages: ActivityMessage[];
  /** The highest sequence number so far: send it back as ?after= for what is new. */
  last: number;
}

/** The account's activity after `?after=<seq>` (default: all that is kept). */
export const activityShape = (account: AccountState, url: URL): ActivityAnswer => {
  const afterText = url.searchParams.get('after') ?? '0';
  const after = Number(afterText);
  if (!Number.isInteger(after) || after < 0) {
    throw new EmulatorError(400, 'invalid_after', 'after must be the "last" value of a previous answer.');
  }
  const activity = account.activity.filter((record) => record.seq > after);
  // The newest messages only, as many as activity is kept: the console polls this every 2 s.
  const messages = [...account.messages.values()]
    .filter((message) => message.seq > after)
    .slice(-ACTIVITY_LIMIT)
    .map((message) => {
      const contactName = account.contacts.get(message.contactId)?.name;
      return {
        ...messageShape(message),
        seq: message.seq,
        at: Date.parse(message.createdAt),
        ...(contactName === undefined ? {} : { contactName }),
      };
    });
  const last = Math.max(after, ...activity.map((record) => record.seq), ...messages.map((message) => message.seq));
  return { activity, messages, last };
};
