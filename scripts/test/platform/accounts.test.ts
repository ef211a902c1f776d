// Several accounts in one local platform (docs/platform-contract.md §10): each with its own key,
// contacts, functions, webhooks and messages, and ids unique only within an account, so two
// accounts hold the same ids and each key sees only its own. An account with its own address (a
// white-label tenant's) answers there to its own key only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPlatformClient } from 'agent-functions/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPlatform } from '../../platform/platform.ts';
import { accountPath } from '../../platform/state.ts';
import { fnInput, raw, useEmulator } from './helpers.ts';

const AGENCY = 'key-of-the-agency';
const ACME = 'key-of-client-acme';
const emulator = useEmulator({
  accounts: [
    { plan: 'agency', name: 'agency', apiKey: AGENCY },
    { plan: 'business', name: 'client-acme', apiKey: ACME, basePath: accountPath('client-acme') },
  ],
  rateLimit: false,
});
const agency = () => createPlatformClient({ baseUrl: emulator.current.url, apiKey: AGENCY });
const acme = () => createPlatformClient({ baseUrl: `${emulator.current.url}/accounts/client-acme`, apiKey: ACME });

// The function both accounts register: it answers with the key of the url the agent called.
let worker: Server;
let workerUrl = '';
beforeAll(async () => {
  worker = createServer((request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ calledWith: new URL(request.url ?? '/', 'http://x').searchParams.get('account') }));
  });
  await new Promise<void>((resolve) => worker.listen(0, '127.0.0.1', resolve));
  workerUrl = `http://127.0.0.1:${(worker.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => worker?.close(resolve)));

describe('two accounts of one local platform', () => {
  it('give their first contact the same id, and each key lists only its own', async () => {
    const ada = await agency().contacts.create({ name: 'Ada', phone: '+15550100', channel: 'whatsapp' });
    const bob = await acme().contacts.create({ name: 'Bob', phone: '+15550200', channel: 'whatsapp' });
    expect(bob.id).toBe(ada.id);
    expect((await agency().contacts.list()).map((contact) => contact.name)).toEqual(['Ada']);
    expect((await acme().contacts.list()).map((contact) => contact.name)).toEqual(['Bob']);
  });

  it("each send a message to that id, and each key reads only its own account's", async () => {
    const [ada] = await agency().contacts.list();
    const [bob] = await acme().contacts.list();
    const toAda = await agency().messages.send({ contactId: ada?.id ?? '', channel: 'whatsapp', text: 'Hi Ada' });
    const toBob = await acme().messages.send({ contactId: bob?.id ?? '', channel: 'whatsapp', text: 'Hi Bob' });
    expect(toBob.id).toBe(toAda.id);
    const listed = async (key: string) =>
      ((await (await raw(emulator.current, '/v1/messages', { key })).json()) as { data: Array<{ text: string }> }).data;
    expect((await listed(ACME)).map((message) => message.text)).toEqual(['Hi Bob']);
    expect((await listed(AGENCY)).map((message) => message.text)).toEqual(['Hi Ada']);
  });

  it('register a function of the same name under the same id, and change or delete it in one account only', async () => {
    const mine = await agency().customFunctions.create(fnInput('book'));
    const theirs = await acme().customFunctions.create(fnInput('book'));
    expect(theirs.id).toBe(mine.id);
    await acme().customFunctions.update(theirs.id, { description: 'Books for Acme. Call it to book at Acme.' });
    expect((await agency().customFunctions.list())[0]?.description).toBe(fnInput('book').description);
    await acme().customFunctions.delete(theirs.id);
    expect(await acme().customFunctions.list()).toEqual([]);
    expect((await agency().customFunctions.list()).map((fn) => fn.id)).toEqual([mine.id]);
    await agency().customFunctions.delete(mine.id);
  });

  it('keep their webhooks and signing secrets apart under the same id', async () => {
    const mine = await agency().webhooks.create({ url: `${workerUrl}/events`, events: ['message.received'] });
    const theirs = await acme().webhooks.create({
      url: `${workerUrl}/events/client-acme`,
      events: ['message.received'],
    });
    expect(theirs.id).toBe(mine.id);
    expect((await agency().webhooks.list()).map((hook) => hook.url)).toEqual([`${workerUrl}/events`]);
    const secret = async (key: string) =>
      (
        (await (await raw(emulator.current, `/v1/webhooks/${mine.id}/signing-secret`, { key })).json()) as {
          secret: string;
        }
      ).secret;
    expect(await secret(AGENCY)).not.toBe(await secret(ACME));
  });

  it("play the agent per account: each key calls its own account's url of the function, and sees only its own calls", async () => {
    await agency().customFunctions.create({ ...fnInput('lookup'), url: `${workerUrl}/functions/lookup?key=k` });
    await acme().customFunctions.create({
      ...fnInput('lookup'),
      url: `${workerUrl}/functions/lookup?account=client-acme&key=k`,
    });
    const call = async (key: string) =>
      (await (
        await raw(emulator.current, '/_emulator/call', {
          key,
          method: 'POST',
          body: JSON.stringify({ name: 'lookup' }),
        })
      ).json()) as { status: number; body: { calledWith: string | null } };
    expect(await call(ACME)).toMatchObject({ status: 200, body: { calledWith: 'client-acme' } });
    expect(await call(AGENCY)).toMatchObject({ status: 200, body: { calledWith: null } });
    const calls = async (key: string) =>
      (
        (await (await raw(emulator.current, '/_emulator/activity', { key })).json()) as {
          activity: Array<{ kind: string; url: string }>;
        }
      ).activity.filter((record) => record.kind === 'call');
    expect((await calls(ACME)).map((record) => record.url)).toEqual([
      `${workerUrl}/functions/lookup?account=client-acme&key=***`,
    ]);
    expect((await calls(AGENCY)).map((record) => record.url)).toEqual([`${workerUrl}/functions/lookup?key=***`]);
  });
});

describe("an account's own address", () => {
  it("answers its own key, and 401 to another account's key", async () => {
    const at = (key: string) => raw(emulator.current, '/accounts/client-acme/v1/contacts', { key });
    expect((await at(ACME)).status).toBe(200);
    const refused = await at(AGENCY);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/another account/);
  });

  it('is listed with the account, and the account still answers its key at the common address', async () => {
    expect(emulator.current.accounts.map(({ name, basePath }) => ({ name, basePath }))).toEqual([
      { name: 'agency', basePath: undefined },
      { name: 'client-acme', basePath: '/accounts/client-acme' },
    ]);
    const contacts = (await (await raw(emulator.current, '/v1/contacts', { key: ACME })).json()) as {
      data: Array<{ name: string }>;
    };
    expect(contacts.data.map((contact) => contact.name)).toContain('Bob');
    expect(contacts.data.map((contact) => contact.name)).not.toContain('Ada');
  });
});

describe('accounts the local platform could not tell apart', () => {
  it('are refused at start: the same key, or the same own address', () => {
    expect(() =>
      createPlatform({
        accounts: [
          { plan: 'business', apiKey: 'same' },
          { plan: 'agency', apiKey: 'same' },
        ],
      }),
    ).toThrow('Two accounts of the local platform have the same API key: give each its own.');
    expect(() =>
      createPlatform({
        accounts: [
          { plan: 'business', basePath: accountPath('acme') },
          { plan: 'agency', basePath: accountPath('acme') },
        ],
      }),
    ).toThrow('Two accounts of the local platform have the same own address (basePath).');
  });
});

describe('a local platform of 500 accounts (an agency at scale)', () => {
  it('answers each key in its own account, without a cost per account on every request', async () => {
    const platform = createPlatform({
      accounts: Array.from({ length: 500 }, (_, i) => ({
        plan: 'business' as const,
        name: `client-${i}`,
        apiKey: `key-${i}`,
      })),
      rateLimit: false,
    });
    const started = performance.now();
    for (let i = 0; i < 500; i++) {
      const response = await platform.fetch(
        new Request('http://platform.test/v1/contacts', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': `key-${i}` },
          body: JSON.stringify({ name: `Customer ${i}`, phone: '+15550100', channel: 'whatsapp' }),
        }),
      );
      expect(((await response.json()) as { id: string }).id).toBe('ct_000001');
    }
    // Comparing against every key cost 130 ms a request here (65 s in all); a digest lookup ~0.5 ms.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(platform.state.accounts.map((account) => [...account.contacts.values()][0]?.name)).toEqual(
      Array.from({ length: 500 }, (_, i) => `Customer ${i}`),
    );
  });
});
