// The platform client sync uses for one account: its custom functions and webhooks, counting the
// requests it sends (retries included), which the reports and the bench read.
import type { RetryInfo } from 'agent-functions/platform';
import { createPlatformClient, type KeyPlacement, type PlatformClient } from 'agent-functions/platform';
import type { FunctionsApi } from './apply.ts';

/** What sync uses of one account: its functions, its webhooks (the events webhook), and a request count. */
export interface AccountApi {
  api: FunctionsApi;
  webhooks?: PlatformClient['webhooks'];
  requests?: { reads: number; writes: number };
}

/** The custom-functions and webhooks clients of one account and a counter of its HTTP requests. */
export const accountApi = (options: {
  baseUrl: string;
  apiKey: string;
  keyPlacement?: KeyPlacement | undefined;
  fetch?: typeof fetch;
  retry?: { retries?: number; baseDelayMs?: number; maxDelayMs?: number };
  maxResponseBytes?: number;
  onRetry?: (info: RetryInfo) => void;
}): AccountApi => {
  const requests = { reads: 0, writes: 0 };
  const client = createPlatformClient({
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    ...(options.keyPlacement ? { keyPlacement: options.keyPlacement } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
    ...(options.onRetry ? { onRetry: options.onRetry } : {}),
    onRequest: (info) => {
      if (info.method === 'GET') requests.reads++;
      else requests.writes++;
    },
  });
  return { api: client.customFunctions, webhooks: client.webhooks, requests };
};
