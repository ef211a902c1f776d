// The platform client of one account, counting the write requests it sends (retries included).
import { createPlatformClient } from '../../src/platform/client.ts';
import type { KeyPlacement } from '../../src/platform/contract.ts';
import type { FunctionsApi } from './apply.ts';

/** A custom-functions client for one account and a counter of its HTTP writes. */
export const accountApi = (options: {
  baseUrl: string;
  apiKey: string;
  keyPlacement?: KeyPlacement | undefined;
  fetch?: typeof fetch;
  retry?: { retries?: number; baseDelayMs?: number; maxDelayMs?: number };
}): { api: FunctionsApi; requests: { reads: number; writes: number } } => {
  const requests = { reads: 0, writes: 0 };
  const client = createPlatformClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.keyPlacement ? { keyPlacement: options.keyPlacement } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    onRequest: (info) => {
      if (info.method === 'GET') requests.reads++;
      else requests.writes++;
    },
  });
  return { api: client.customFunctions, requests };
};
