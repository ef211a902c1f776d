// Benchmark entry: the project Worker serving 5,000 accounts (createWorker's accounts option) as an
// agency deploys it: the first from PLATFORM_API_KEY, listed in the bundle, and every client only in
// the store (nothing of them in the bundle: scripts/project/accounts.ts `bundled`). The store is an in-memory stand-in
// that takes one millisecond, like a Durable Object round trip; it counts its reads, which
// GET /bench/store-reads answers, so the bench can check each account is read at most once a minute.
import type { Env } from 'agent-functions';
import { serveAccounts } from 'agent-functions/accounts';
import { type AccountEntry, createWorker } from 'agent-functions/worker';
import { ACCOUNTS } from './accountsScale.ts';
import { functions } from './projectFunctions.ts';

const list: AccountEntry[] = [{ name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }];
/** The clients the stand-in store holds: client-2 to client-ACCOUNTS. */
const isClient = (name: string) => /^client-\d+$/.test(name) && Number(name.slice(7)) <= ACCOUNTS;
const reads = new Map<string, number>();

const worker = createWorker({
  functions,
  accounts: serveAccounts({
    list,
    settings: { timezone: 'Europe/London' },
    store: async (_env, name) => {
      reads.set(name, (reads.get(name) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (!isClient(name)) return undefined;
      return { apiKey: `key-of-${name}`, baseUrl: `https://${name}.platform.example`, secrets: {}, updatedAt: 0 };
    },
  }),
});

export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) =>
    new URL(request.url).pathname === '/bench/store-reads'
      ? Response.json(Object.fromEntries(reads))
      : worker.fetch(request, env, ctx),
} satisfies ExportedHandler<Env>;
