// The console's log of recent calls: what was sent, and exactly what the model got back.

export interface LoggedCall {
  id: number;
  at: string;
  name: string;
  arguments: unknown;
  status: number;
  durationMs: number;
  /** When the call was sent and answered, in ms since the epoch (messages sent in between are its own). */
  startedAt: number;
  endedAt: number;
  /** The response body as the Worker sent it: the text the model reads. */
  body: string;
  /** The Worker's X-Request-Id of its answer. */
  requestId?: string;
  /** The conversation the console's agent called from, when the local platform gives one. */
  conversation?: { contactId: string; conversationId: string; channel: string };
  /** The account whose agent called (its url), when the local platform plays several. */
  account?: string;
}

/** A bounded, newest-first log. */
export const createCallLog = (limit = 50) => {
  const calls: LoggedCall[] = [];
  let next = 1;
  return {
    add: (call: Omit<LoggedCall, 'id' | 'at'>): LoggedCall => {
      const entry = { id: next++, at: new Date().toISOString(), ...call };
      calls.unshift(entry);
      calls.length = Math.min(calls.length, limit);
      return entry;
    },
    list: (): LoggedCall[] => [...calls],
  };
};
