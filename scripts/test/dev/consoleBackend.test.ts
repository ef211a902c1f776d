// What dev answers the console, against the real local platform, in process: the functions as the
// Worker serves them and as each account holds them, the url each account's agent calls, and the
// customer the console's agent speaks for in each account.
import { rmSync } from 'node:fs';
import { createPlatformClient } from 'agent-functions/platform';
import { functionUrl } from 'agent-functions/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleBackend } from '../../dev/consoleBackend.ts';
import { registerOnAccounts } from '../../dev/register.ts';
import type { ManifestRead } from '../../dev/workerManifest.ts';
import type { DevAccount } from '../../local/accounts.ts';
import { type LocalPlatform, startLocalPlatform } from '../../local/platform.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { ACCOUNTS, lines, manifestOf, ORIGIN, SECRET, smallProject } from './served.ts';

let local: LocalPlatform;
let read: ManifestRead;
/** What the Worker answers now (undefined: it is restarting). */
let answer: ManifestRead | undefined;
const root = smallProject();

const backend = () =>
  createConsoleBackend({
    accounts: local.accounts,
    origin: ORIGIN,
    secret: SECRET,
    root,
    manifest: async () => answer,
    current: () => read,
  });
const named = (name: string) => local.accounts.find((account) => account.name === name) as DevAccount;
const contactsOf = (account: DevAccount) =>
  createPlatformClient({ baseUrl: account.baseUrl, apiKey: account.apiKey }).contacts.list();
const served = (name: string) => (read as { served: ServedFunction[] }).served.find((fn) => fn.name === name);

beforeAll(async () => {
  local = await startLocalPlatform(0, undefined, ACCOUNTS);
  read = await manifestOf();
  answer = read;
  // quote_plan everywhere it may go; tell_time nowhere yet; cancel_plan only on the agency's account.
  const { stdout, stderr } = lines();
  const register = (accounts: DevAccount[], names: string[]) =>
    registerOnAccounts({
      accounts,
      origin: ORIGIN,
      secret: SECRET,
      served: (read as { served: ServedFunction[] }).served.filter((fn) => names.includes(fn.name)),
      stdout,
      stderr,
      root,
    });
  await register(local.accounts, ['quote_plan']);
  await register([named('agency')], ['cancel_plan', 'quote_plan']);
});
afterAll(async () => {
  await local?.emulator.close();
  rmSync(root, { recursive: true, force: true });
});

describe("the console's side of npm run dev", () => {
  it('lists every function the Worker serves, as the first account holds it (key masked) and which accounts hold it', async () => {
    const { functions, problem } = await backend().functions();
    expect(problem).toBeUndefined();
    expect(functions.map(({ name, registeredOn }) => ({ name, registeredOn }))).toEqual([
      { name: 'cancel_plan', registeredOn: ['agency'] },
      { name: 'quote_plan', registeredOn: ['agency', 'client-acme'] },
      { name: 'tell_time', registeredOn: [] },
    ]);
    const quote = functions.find((fn) => fn.name === 'quote_plan');
    expect(quote?.registered).toEqual({
      description: served('quote_plan')?.description,
      parameters: served('quote_plan')?.parameters,
      url: `${ORIGIN}/functions/quote_plan?key=***`,
    });
    expect(quote?.jsonSchema).toMatchObject({ type: 'object' });
    expect(functions.find((fn) => fn.name === 'tell_time')?.registered).toBeNull();
  });

  it("shows the Worker's problem with the functions last read while it has one, and them while it restarts", async () => {
    answer = { error: 'The Worker answered 500 to GET /functions: a definition is invalid.' };
    const broken = await backend().functions();
    answer = undefined;
    const restarting = await backend().functions();
    answer = read;
    expect(broken).toEqual({
      functions: [],
      problem: 'The Worker answered 500 to GET /functions: a definition is invalid.',
    });
    expect(restarting.functions.map((fn) => fn.name)).toEqual(['cancel_plan', 'quote_plan', 'tell_time']);
  });

  it("gives each account's url: ?account= on every account's but the first's", async () => {
    const { urlOf } = backend();
    const fn = served('tell_time') as ServedFunction;
    expect(await urlOf('tell_time')).toBe(await functionUrl(ORIGIN, fn, SECRET));
    expect(await urlOf('tell_time', 'agency')).toBe(await functionUrl(ORIGIN, fn, SECRET));
    expect(await urlOf('tell_time', 'agency')).not.toContain('account=');
    expect(await urlOf('tell_time', 'client-acme')).toBe(await functionUrl(ORIGIN, fn, SECRET, 'client-acme'));
    expect(await urlOf('tell_time', 'client-acme')).toContain('account=client-acme');
    expect(await urlOf('no_such_function')).toBeUndefined();
  });

  it('speaks for one customer per account, created once and then reused', async () => {
    const { conversation } = backend();
    const acme = await conversation('client-acme');
    expect(await conversation('client-acme')).toEqual(acme);
    const agency = await conversation();
    expect(agency).toEqual({
      contactId: expect.any(String),
      conversationId: `cv_${agency?.contactId}`,
      channel: 'whatsapp',
    });
    expect(agency?.contactId).not.toBe(acme?.contactId);
    expect((await contactsOf(named('client-acme'))).map((c) => [c.id, c.name])).toEqual([
      [acme?.contactId, 'Console customer'],
    ]);
  });

  it('forgets a customer it failed to create, and creates it on the next call', async () => {
    const { conversation } = backend();
    local.emulator.setFaults({ serverErrors: { first: 1, methods: ['POST'] } });
    await expect(conversation('client-bolt')).rejects.toThrow();
    local.emulator.setFaults({});
    const bolt = await conversation('client-bolt');
    expect((await contactsOf(named('client-bolt'))).map((c) => c.id)).toContain(bolt?.contactId);
  });
});
