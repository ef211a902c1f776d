// agent-functions-cli/platform: the local platform as a library. Runtime-neutral (fetch only), so
// it serves workerd tests as a double too; the Node server is agent-functions-cli/platform/server.
export type { OutboundRoutes } from './double.ts';
export { contactsOf, messagesOf, PLATFORM_KEY, PLATFORM_URL, seedContact, usePlatform } from './double.ts';
export type { FaultOptions } from './faults.ts';
export type { LoggedRequest, Platform, PlatformOptions } from './platform.ts';
export { ConnectionDropped, createPlatform } from './platform.ts';
export type { AccountOptions, AccountPlan, ContactRecord, MessageRecord, SeededAccount } from './state.ts';
