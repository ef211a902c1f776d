// Two accounts holding the same contact and conversation ids never see each other's state
// (docs/platform-contract.md §10): a write's repeats and a deferred call's follow-up stay in the
// call's own account, and the opt-out check is asked about that account's contact.
import { introspectWorkflow } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serveAccounts } from '../../accounts/serve.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { platformFromEnv } from '../../platform/client/fromEnv.ts';
import { withEnv } from '../../testing/call.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { env } from '../helpers.ts';

const runs = new Map<string, number>();
const count = (key: string) => runs.set(key, (runs.get(key) ?? 0) + 1).get(key) as number;
const asked: Array<{ account: string; contactId: string }> = [];
const sent: Array<{ origin: string; key: string | null; contactId: string; text: string }> = [];

const worker = createWorker({
  conversations: conversationFeatures,
  platform: platformFromEnv,
  accounts: serveAccounts({
    list: [
      { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
      { name: 'client-b', apiKeyEnv: 'CLIENT_B_KEY', baseUrl: 'https://b.platform.test' },
    ],
  }),
  functions: {
    acct_book: defineFunction({
      description: 'Books a table for the tests: a write, so repeats in a conversation do not run.',
      parameters: z.object({ tag: z.string() }),
      handler: ({ tag }, { account }) => ({ account: account.name, run: count(`${tag}/${account.name}`) }),
    }),
    acct_later: defineFunction({
      description: 'Checks stock slowly for the tests: may answer later.',
      parameters: z.object({ tag: z.string() }),
      effect: 'read',
      timeoutMs: 8_000,
      handler: async ({ tag }, { deferred, account }) => {
        if (!deferred) await new Promise((resolve) => setTimeout(resolve, 4_000));
        return { summary: `${tag} ready for ${account.name}` };
      },
      later: {
        answerWithinMs: 200,
        interim: 'Checking with the warehouse; the customer gets a message here in a minute.',
        message: (result) => result.summary,
        retries: 0,
      },
    }),
  },
  mayMessage: (_env, { account, contactId }) => {
    asked.push({ account, contactId });
    return true;
  },
});
const environment = env as Env;
const first = withEnv(worker, environment);
const clientB = withEnv(worker, environment, 'client-b');
const same = { contactId: 'c_1', conversationId: 'cv_1', channel: 'whatsapp' };

let outbound: Outbound;
beforeEach(() => {
  asked.length = 0;
  sent.length = 0;
  outbound = mockOutbound().on('POST', /\/v1\/messages$/, async (request) => {
    const { contactId, text } = (await request.json()) as { contactId: string; text: string };
    sent.push({ origin: new URL(request.url).origin, key: request.headers.get('x-api-key'), contactId, text });
    return Response.json({ id: 'msg_1' }, { status: 201 });
  });
});
afterEach(() => outbound.restore());

describe('two accounts with the same ids', () => {
  it("run a write once in each account: one account's repeat is never the other's answer", async () => {
    const tag = crypto.randomUUID();
    const a = await first.call('acct_book', { tag, ...same });
    const b = await clientB.call('acct_book', { tag, ...same });
    const bAgain = await clientB.call('acct_book', { tag, ...same });
    expect(await a.json()).toEqual({ account: 'agency', run: 1 });
    expect(await b.json()).toEqual({ account: 'client-b', run: 1 });
    expect(await bAgain.json()).toEqual({ account: 'client-b', run: 1 });
  });

  it("send a deferred call's follow-up from the call's account, after asking about that account's contact", async () => {
    const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
    try {
      await workflows.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
      const response = await clientB.call('acct_later', { tag: 'order', ...same });
      expect(await response.json()).toMatchObject({ status: 'pending' });
      for (const instance of await workflows.get()) await instance.waitForStatus('complete');
    } finally {
      await workflows.dispose();
    }
    expect(asked).toEqual([{ account: 'client-b', contactId: 'c_1' }]);
    expect(sent).toEqual([
      { origin: 'https://b.platform.test', key: 'key-of-b', contactId: 'c_1', text: 'order ready for client-b' },
    ]);
  });

  it('keep their deferred work when Workers made later in the isolate serve the same function for other accounts, or refuse it', async () => {
    // A test's own Worker (its own accounts file) created after the project's: the project's
    // deferred calls still run and message from their own account.
    createWorker({
      conversations: conversationFeatures,
      platform: platformFromEnv,
      accounts: serveAccounts({
        list: [{ name: 'someone-else', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' }],
      }),
      functions: {
        acct_later: defineFunction({
          description: 'Checks stock slowly for the tests: may answer later.',
          parameters: z.object({ tag: z.string() }),
          effect: 'read',
          handler: ({ tag }) => ({ summary: `${tag} from the other Worker` }),
          later: {
            answerWithinMs: 200,
            interim: 'Checking with the warehouse; the customer gets a message here in a minute.',
            message: (result) => result.summary,
          },
        }),
      },
    });
    // And one whose definition of it is refused (its interim promises nothing): it serves nothing.
    createWorker({
      conversations: conversationFeatures,
      platform: platformFromEnv,
      functions: {
        acct_later: defineFunction({
          description: 'Checks stock slowly for the tests: may answer later.',
          parameters: z.object({ tag: z.string() }),
          effect: 'read',
          handler: ({ tag }) => ({ summary: tag }),
          later: { answerWithinMs: 200, interim: 'Checking.', message: (result) => result.summary },
        }),
      },
    });
    const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
    const outcomes: unknown[] = [];
    try {
      await workflows.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
      const response = await clientB.call('acct_later', { tag: 'parcel', ...same, conversationId: 'cv_twin' });
      expect(await response.json()).toMatchObject({ status: 'pending' });
      for (const instance of await workflows.get()) {
        await instance.waitForStatus('complete');
        outcomes.push(await instance.getOutput());
      }
    } finally {
      await workflows.dispose();
    }
    expect(outcomes).toEqual([{ work: 'done', message: 'sent' }]);
    expect(sent).toEqual([
      { origin: 'https://b.platform.test', key: 'key-of-b', contactId: 'c_1', text: 'parcel ready for client-b' },
    ]);
  });
});
