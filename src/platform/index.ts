// agent-functions/platform: the platform's REST API as a typed client (for functions, through
// context.platform, and for tools), and its wire protocol: paths, headers, signatures and the
// record schemas the client sends and a local platform checks. Every name is listed (docs/api.md).
export type { PlatformClient, PlatformClientOptions } from './client/client.ts';
export { createPlatformClient } from './client/client.ts';
export type { PlatformErrorOptions } from './client/errors.ts';
export {
  AuthenticationError,
  ConflictError,
  NetworkError,
  NotFoundError,
  PlanError,
  PlatformError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './client/errors.ts';
export { type PlatformAccess, platformFromEnv } from './client/fromEnv.ts';
export { printable } from './client/printable.ts';
export type { RetryOptions } from './client/retry.ts';
export type { RequestInfo, RetryInfo } from './client/transport.ts';
export type { KeyPlacement } from './protocol/contract.ts';
export {
  ACCOUNT_NAME,
  API_KEY_HEADER,
  API_KEY_QUERY,
  CONVERSATION_ID_LIMIT,
  CONVERSATION_KEYS,
  CURSOR_PARAM,
  DEFAULT_KEY_PLACEMENT,
  DEFAULT_MAX_RESPONSE_BYTES,
  EVENT_ID_KEY,
  EVENT_NAME,
  EVENT_TYPE_KEY,
  EVENTS_PATH,
  eventsPathOf,
  eventsPathPattern,
  ID_KEYS,
  LIST_KEYS,
  MAX_PAGES,
  NEXT_KEYS,
  PLATFORM_ADDED_KEY,
  SAFE_ID,
  SECRET_KEYS,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  WEBHOOKS_PATH,
} from './protocol/contract.ts';
export type { FunctionRecord, FunctionRecordUpdate, ParameterType, RemoteFunction } from './protocol/function.ts';
export { FUNCTION_NAME, PARAMETER_TYPES } from './protocol/function.ts';
export type {
  ContactInput,
  MessageInput,
  SubAccountInput,
  WebhookInput,
  WebhookUpdate,
} from './protocol/schemas.ts';
export {
  contactInput,
  describeIssues,
  endpointUrl,
  functionName,
  functionRecord,
  functionRecordUpdate,
  messageInput,
  missingOr,
  parameterMap,
  subAccountInput,
  text,
  webhookInput,
  webhookUpdate,
} from './protocol/schemas.ts';
export type { SignatureParts, SignatureVerdict } from './protocol/signature.ts';
export {
  macMatches,
  SIGNATURE_TOLERANCE_SECONDS,
  signatureParts,
  signWebhook,
  verifyWebhook,
  webhookHeaders,
} from './protocol/signature.ts';
export type { Contact, Message, PlatformRecord, SigningSecret, SubAccount, Webhook } from './protocol/types.ts';
