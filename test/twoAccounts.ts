// The examples' Worker serving two client businesses (docs/sync-and-accounts.md "Which account a
// call acts in"): the agency's own account, client-b with its own settings, and client-c with none
// (no team inbox or store of its own: the Worker-wide ones serve the first account only). Each
// example's accounts test (test/functions/<name>.accounts.test.ts) calls it as either.
import { serveAccounts } from 'agent-functions/accounts';
import { withApproval } from 'agent-functions/approval';
import { conversationFeatures } from 'agent-functions/conversations';
import { platformFromEnv } from 'agent-functions/platform';
import { withEnv } from 'agent-functions/testing';
import { createWorker, rateLimits } from 'agent-functions/worker';
import { functions } from '../generated/functions.ts';
import { mayMessage } from '../lib/optOuts.ts';
import { teamContactOf } from '../lib/team.ts';
import { platformEnv } from './helpers.ts';

/** client-b's platform, at an address of its own. */
export const CLIENT_B = 'https://b.platform.test';
/** client-c's platform. */
export const CLIENT_C = 'https://c.platform.test';
/** The first account's store (STORE_API_URL): no other account may reach it. */
export const FIRST_STORE = 'https://store.test/api';

const worker = createWorker({
  functions,
  accounts: serveAccounts({
    list: [
      { name: 'default', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
      {
        name: 'client-b',
        apiKeyEnv: 'CLIENT_B_KEY',
        baseUrl: CLIENT_B,
        settings: { handoffContactId: 'ct_team_b', handoffChannel: 'sms', timezone: 'Asia/Tokyo' },
      },
      { name: 'client-c', apiKeyEnv: 'CLIENT_C_KEY', baseUrl: CLIENT_C },
    ],
  }),
  platform: platformFromEnv,
  // The team worker.ts asks for approvals.
  conversations: withApproval(conversationFeatures, { teamContact: teamContactOf }),
  rateLimits,
  mayMessage,
});

/** The tests' env, with client-b's and client-c's keys, and the first account's store. */
export const environment = platformEnv({
  CLIENT_B_KEY: 'key-of-b',
  CLIENT_C_KEY: 'key-of-c',
  STORE_API_URL: FIRST_STORE,
  STORE_API_KEY: 'test-store-key',
});
/** Calls through the first account's urls, and through client-b's. */
export const agency = withEnv(worker, environment);
export const clientB = withEnv(worker, environment, 'client-b');
export const clientC = withEnv(worker, environment, 'client-c');
