// The deferred functions' timing, shared by their Worker (projectWithConversations.ts) and the
// runner that judges them (bench/src/conversations.ts).

/** How long the deferred functions may keep the agent waiting. */
export const ANSWER_WITHIN_MS = 500;

/** How long the slow deferred function works. */
export const SLOW_WORK_MS = 5_000;
