// What npm run dev starts beside the Worker, in process, in a copy of the project with the CLI's
// fixture functions and a dev.config.ts of the test's own: the local platform with the project's
// accounts, the project's stand-ins, dev's state, the Worker's settings; and close(), which stops
// all of it.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevServices, startServices } from '../../dev/services.ts';
import { readDevState } from '../../project/devState.ts';
import { fixtureProject } from '../project.ts';
import { freePort } from './harness.ts';

// A stand-in server, and a contact of the local platform for the Worker to write to; its setup
// fails while the project holds a file store.down.
const STAND_IN = `import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
export default {
  async setup({ platform }) {
    if (existsSync(new URL('./store.down', import.meta.url))) throw new Error('the store is down');
    const server = createServer((_request, response) => response.end('stand-in'));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const inbox = await platform.contacts.create({ name: 'Team inbox', phone: '+14155550100', channel: 'whatsapp' });
    return {
      vars: { STAND_IN_URL: 'http://127.0.0.1:' + server.address().port, TEAM_CONTACT_ID: inbox.id },
      stop: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }),
    };
  },
};
`;
const ACCOUNTS = {
  accounts: [
    { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
    { name: 'client-acme', apiKeyEnv: 'ACME_API_KEY', baseUrlEnv: 'ACME_BASE_URL' },
  ],
};

let root: string;
beforeAll(() => {
  root = fixtureProject({ 'dev.config.ts': STAND_IN, 'platform.accounts.json': JSON.stringify(ACCOUNTS) });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Whether something answers at `url` (with the key, for the local platform). */
const answers = async (url: string, apiKey = ''): Promise<number | 'refused'> =>
  fetch(url, { headers: { 'x-api-key': apiKey } }).then(
    (response) => response.status,
    () => 'refused' as const,
  );

describe("npm run dev's services", () => {
  let services: DevServices;
  beforeAll(async () => {
    services = await startServices(root, 0);
  });

  it("start the local platform with the project's accounts, each answering with its own key", async () => {
    const { accounts, emulator } = services.platform;
    expect(accounts.map(({ name, baseUrl }) => [name, baseUrl])).toEqual([
      ['agency', emulator.url],
      ['client-acme', `${emulator.url}/accounts/client-acme`],
    ]);
    for (const account of accounts) expect(await answers(`${account.baseUrl}/v1/contacts`, account.apiKey)).toBe(200);
  });

  it("run the project's stand-ins, which seed the platform, and wire them and the accounts into the Worker's settings", async () => {
    const { vars, secret, problems } = services.settings;
    const contacts = await fetch(`${services.platform.emulator.url}/v1/contacts`, {
      headers: { 'x-api-key': services.platform.agencyKey },
    }).then((response) => response.json() as Promise<{ data: Array<{ id: string; name: string }> }>);
    expect(contacts.data.map(({ id, name }) => ({ id, name }))).toEqual([
      { id: vars.TEAM_CONTACT_ID, name: 'Team inbox' },
    ]);
    expect(await (await fetch(vars.STAND_IN_URL as string)).text()).toBe('stand-in');
    expect(vars).toMatchObject({
      PLATFORM_BASE_URL: services.platform.emulator.url,
      PLATFORM_API_KEY: services.platform.agencyKey,
      ACME_API_KEY: 'local-client-acme-account-key',
      ACME_BASE_URL: `${services.platform.emulator.url}/accounts/client-acme`,
    });
    expect(problems).toEqual([]);
    // No FUNCTIONS_SECRET in .dev.vars: the Worker serves without a key, the urls carry a session's.
    expect(secret).toBeUndefined();
    expect(services.secret).toMatch(/^[\w-]{32}$/);
  });

  it("record where the platform and its accounts are, for the project's other commands", () => {
    expect(readDevState(root)).toEqual({
      platformUrl: services.platform.emulator.url,
      accounts: services.platform.accounts.map(({ name, apiKey, baseUrl }) => ({ name, apiKey, baseUrl })),
    });
  });

  it("keep the console's url in the state when the accounts change, so npm run stats still finds dev", () => {
    const consoleUrl = 'http://127.0.0.1:8789/';
    services.publish(consoleUrl);
    const { settings, added } = services.reload({
      ...ACCOUNTS,
      accounts: [...ACCOUNTS.accounts, { name: 'client-bolt', apiKeyEnv: 'BOLT_API_KEY', baseUrlEnv: 'BOLT_BASE_URL' }],
    } as Parameters<DevServices['reload']>[0]);
    expect(added).toEqual(['client-bolt']);
    expect(settings.problems).toEqual([]);
    // As dev's accounts file watcher does once the Worker serves them all.
    services.publish();
    expect(readDevState(root)).toEqual({
      platformUrl: services.platform.emulator.url,
      accounts: services.platform.accounts.map(({ name, apiKey, baseUrl }) => ({ name, apiKey, baseUrl })),
      consoleUrl,
    });
    expect(readDevState(root)?.accounts?.map(({ name }) => name)).toEqual(['agency', 'client-acme', 'client-bolt']);
  });

  it('stop all of it on close(), and forget the state', async () => {
    const platformUrl = services.platform.emulator.url;
    const standIn = services.settings.vars.STAND_IN_URL as string;
    await services.close();
    expect(await answers(`${platformUrl}/v1/contacts`)).toBe('refused');
    expect(await answers(standIn)).toBe('refused');
    expect(readDevState(root)).toBeUndefined();
  });
});

describe("npm run dev's services, set otherwise", () => {
  it("key the urls with .dev.vars's secret when it sets one", async () => {
    writeFileSync(join(root, '.dev.vars'), 'FUNCTIONS_SECRET=q3Jx9vT0bq8hV1dYl2mKc7pR5sWz4nA6\n');
    const services = await startServices(root, 0);
    await services.close();
    rmSync(join(root, '.dev.vars'));
    expect(services.secret).toBe('q3Jx9vT0bq8hV1dYl2mKc7pR5sWz4nA6');
    expect(services.settings.secret).toBe('q3Jx9vT0bq8hV1dYl2mKc7pR5sWz4nA6');
  });

  it("leave nothing running when the project's setup fails, and say why in one line", async () => {
    writeFileSync(join(root, 'store.down'), '');
    const port = await freePort();
    const failed = await startServices(root, port).catch((error: Error) => error);
    rmSync(join(root, 'store.down'));
    expect((failed as Error).message).toBe('dev.config.ts: setup failed: the store is down');
    expect(await answers(`http://127.0.0.1:${port}/v1/contacts`)).toBe('refused');
    expect(readDevState(root)).toBeUndefined();
  });
});
