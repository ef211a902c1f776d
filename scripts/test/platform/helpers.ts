// Shared set-up of the platform tests: a real emulator on a free port, and clients of it.
import { createServer } from 'node:net';
import type { FunctionRecord, RequestInfo } from 'agent-functions/platform';
import { createPlatformClient, type PlatformClientOptions } from 'agent-functions/platform';
import { afterAll, beforeAll } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../platform/emulator.ts';
import type { AccountPlan } from '../../platform/state.ts';

/** Starts one emulator for the file's tests and stops it after them. */
export const useEmulator = (options: EmulatorOptions = {}): { readonly current: RunningEmulator } => {
  const holder = {} as { current: RunningEmulator };
  beforeAll(async () => {
    holder.current = await startEmulator({ port: 0, ...options });
  });
  afterAll(() => holder.current?.close());
  return holder;
};

/** The seeded key of a plan's account. */
export const keyOf = (emulator: RunningEmulator, plan: AccountPlan = 'business'): string => {
  const account = emulator.accounts.find((candidate) => candidate.plan === plan);
  if (!account) throw new Error(`no ${plan} account`);
  return account.apiKey;
};

/** A client of the emulator with fast retries, recording every attempt. */
export const clientOf = (
  emulator: RunningEmulator,
  options: Partial<PlatformClientOptions> & { plan?: AccountPlan } = {},
) => {
  const attempts: RequestInfo[] = [];
  const { plan, ...rest } = options;
  const client = createPlatformClient({
    baseUrl: emulator.url,
    apiKey: keyOf(emulator, plan),
    retry: { retries: 3, baseDelayMs: 1, maxDelayMs: 5 },
    timeoutMs: 5_000,
    onRequest: (info) => attempts.push(info),
    ...rest,
  });
  return { client, attempts };
};

/** A function registration the emulator accepts; `name` must be unique within a file. */
export const fnInput = (name: string): FunctionRecord => ({
  name,
  description: `Does ${name}. Call it when the customer asks for it.`,
  url: `https://functions.example.com/functions/${name}?key=k`,
  parameters: { city: 'string', seats: 'number' },
});

/** Sends a raw request to the emulator, bypassing the client's own validation. */
export const raw = (emulator: RunningEmulator, path: string, init: RequestInit & { key?: string } = {}) => {
  const { key = keyOf(emulator), ...rest } = init;
  return fetch(`${emulator.url}${path}`, {
    ...rest,
    headers: { 'content-type': 'application/json', 'x-api-key': key, ...(rest.headers as Record<string, string>) },
  });
};

/** A port of 127.0.0.1 that nothing listens on (connections are refused). */
export const closedPort = async (): Promise<number> => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
};
