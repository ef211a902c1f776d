// agent-functions: what a function or event file imports. Everything else is on a subpath
// (`agent-functions/worker`, `/events`, `/platform`, `/openapi`, `/mcp`, `/testing`); a module that
// no subpath exports is private and may change in any release.

export type { AccountSettings, CallAccount } from './account.ts';
export type { Conversation } from './conversation.ts';
export type {
  AnyFunctionDefinition,
  ApprovalContext,
  ApprovalOption,
  DedupeOption,
  Effect,
  FunctionAnnotations,
  FunctionContext,
  FunctionDefinition,
  LaterOption,
  ParameterSchema,
  RateLimitOption,
} from './define.ts';
export { defineFunction } from './define.ts';
export type { Env, FrameworkEnv } from './env.ts';
export type { ArgumentProblem } from './errors.ts';
export { FunctionError } from './errors.ts';
export type { AnyEventDefinition, EventContext, EventDefinition, PayloadSchema } from './events/define.ts';
export { defineEvent } from './events/define.ts';
export { safeEqual } from './keys.ts';
export type { LogFields, Logger } from './log.ts';
