// The examples' Worker serving two client businesses (docs/sync-and-accounts.md "Which account a
// call acts in"): the agency's own account and client-b, each with its own settings. Each
// example's accounts test (test/functions/<name>.accounts.test.ts) calls it as either.
import { serveAccounts } from 'agent-functions/accounts';
import { conversationFeatures } from 'agent-functions/conversations';
import { platformFromEnv } from 'agent-functions/platform';
import { withEnv } from 'agent-functions/testing';
import { createWorker } from 'agent-functions/worker';
import { functions } from '../generated/functions.ts';
import { mayMessage } from '../lib/optOuts.ts';
import { platformEnv } from './helpers.ts';

/** client-b's platform, at an address of its own. */
export const CLIENT_B = 'https://b.platform.test';

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
    ],
  }),
  platform: platformFromEnv,
  conversations: conversationFeatures,
  mayMessage,
});

/** The tests' env, with client-b's key. */
export const environment = platformEnv({ CLIENT_B_KEY: 'key-of-b' });
/** Calls through the first account's urls, and through client-b's. */
export const agency = withEnv(worker, environment);
export const clientB = withEnv(worker, environment, 'client-b');
