// agent-functions/approval: a person approves before a function's consequential write
// (docs/functions.md "Approval"). worker.ts wraps the conversations feature with withApproval and
// exports the Durable Object and the workflow its wrangler.toml binds.
export type { ApprovalPendingAnswer } from './ask.ts';
export { DEFAULT_WAITING } from './ask.ts';
export { TEAM_ASK_LIMIT, TEAM_ASK_WINDOW_MS } from './budget.ts';
export type { ApprovalState, ApprovalView } from './desk.ts';
export { ApprovalDesk } from './desk.ts';
export type { ApprovalFeatureOptions } from './feature.ts';
export { withApproval } from './feature.ts';
export type { ApprovalParams } from './params.ts';
export type { ReplyOutcome } from './reply.ts';
export { decideByReply } from './reply.ts';
export type { TeamContact, TeamContactOf } from './runtime.ts';
export { ASK_MAX_CHARS } from './text.ts';
export type { ApprovalOutcome } from './workflow.ts';
export { APPROVED_BUT_FAILED, APPROVED_OUTCOME_UNKNOWN, ApprovalRequest } from './workflow.ts';
