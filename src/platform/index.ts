// agent-functions/platform: the platform's REST API as a typed client (for functions, through
// context.platform, and for tools), and its wire protocol: paths, headers, signatures and the
// record schemas the client sends and a local platform checks.
export type { PlatformClient, PlatformClientOptions } from './client/client.ts';
export { createPlatformClient } from './client/client.ts';
export * from './client/errors.ts';
export { type PlatformAccess, platformFromEnv } from './client/fromEnv.ts';
export { printable } from './client/printable.ts';
export type { RetryOptions } from './client/retry.ts';
export type { RequestInfo, RetryInfo } from './client/transport.ts';
export * from './protocol/contract.ts';
export * from './protocol/function.ts';
export * from './protocol/schemas.ts';
export * from './protocol/signature.ts';
export type * from './protocol/types.ts';
