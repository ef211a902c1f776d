// Whether the Worker answered a call of `npm run platform -- call` from its call ledger (a repeat
// of the same call earlier in the conversation: the handler did not run), as the console shows it.
// The console of the running `npm run dev` knows, from the Worker's log (call_repeated).
import { setTimeout as sleep } from 'node:timers/promises';

/** The line the call prints under its answer when it was a repeat. */
export const REPEAT_LINE =
  'repeat: the stored answer of the same call earlier in this conversation; the handler did not run (docs/functions.md, "Calls that repeat")';

type Activity = { items?: Array<{ kind?: string; requestId?: string; repeated?: boolean }> };

/**
 * Asks the console at `consoleUrl` whether the call answered under `requestId` was a repeat; looks
 * a few times, as the Worker's log line may reach dev just after the answer. False when it cannot tell.
 * @example await answeredFromLedger('http://127.0.0.1:8789/', 'a1b2c3') // true
 */
export const answeredFromLedger = async (consoleUrl: string, requestId: string, looks = 5): Promise<boolean> => {
  for (let look = 0; look < looks; look++) {
    try {
      const response = await fetch(new URL('/api/activity', consoleUrl), { signal: AbortSignal.timeout(2000) });
      const activity = (await response.json()) as Activity;
      const call = activity.items?.find((item) => item.kind === 'call' && item.requestId === requestId);
      if (call?.repeated) return true;
      if (call) return false;
    } catch {
      return false;
    }
    await sleep(200);
  }
  return false;
};
