// Benchmark entry: the project Worker serving 500 accounts (createWorker's accounts option), the
// first from PLATFORM_API_KEY and every other's key in a store. The store is an in-memory stand-in
// that takes one millisecond, like a Durable Object round trip; it counts its reads, which
// GET /bench/store-reads answers, so the bench can check each account is read at most once a minute.
import type { Env } from 'agent-functions';
import { serveAccounts } from 'agent-functions/accounts';
import { type AccountEntry, createWorker } from 'agent-functions/worker';
import { ACCOUNTS } from './accountsScale.ts';
import { functions } from './projectFunctions.ts';

const list: AccountEntry[] = Array.from({ length: ACCOUNTS }, (_, i) =>
  i === 0
    ? { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }
    : {
        name: `client-${i + 1}`,
        baseUrl: `https://client-${i + 1}.platform.example`,
        settings: { timezone: 'Europe/Paris' },
      },
);
const reads = new Map<string, number>();

const worker = createWorker({
  functions,
  accounts: serveAccounts({
    list,
    settings: { timezone: 'Europe/London' },
    store: async (_env, name) => {
      reads.set(name, (reads.get(name) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { apiKey: `key-of-${name}`, secrets: {}, updatedAt: 0 };
    },
  }),
});

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    new URL(request.url).pathname === '/bench/store-reads'
      ? Response.json(Object.fromEntries(reads))
      : worker.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
