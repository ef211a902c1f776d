// The console's routes on their own (scripts/dev/console/routes.ts): what each method and path
// answers, with no server and no Worker (those are console.test.ts's).
import { describe, expect, it } from 'vitest';
import { type ConsoleRequest, routeConsole } from '../../dev/console/routes.ts';
import { consoleState } from '../../dev/console/state.ts';
import type { ConsoleOptions } from '../../dev/console/types.ts';

const ACCOUNTS = [
  { name: 'default', url: 'http://127.0.0.1:1/default', apiKey: 'key-default' },
  { name: 'acme', url: 'http://127.0.0.1:1/acme', apiKey: 'key-acme' },
];

/** A console's state whose urlOf records every name asked for. */
const stateOf = (extra: Partial<ConsoleOptions> = {}) => {
  const asked: string[] = [];
  const state = consoleState({
    port: 0,
    functions: async () => [{ name: 'get_order', registered: null, jsonSchema: {} }],
    urlOf: async (name) => {
      asked.push(name);
      return undefined;
    },
    accounts: ACCOUNTS,
    conversation: async () => ({ contactId: 'c1', conversationId: 'conv', channel: 'sms' }),
    ...extra,
  });
  return { state, asked };
};

const request = (method: string, path: string, body: unknown = {}): ConsoleRequest => {
  const url = new URL(path, 'http://console.invalid');
  return { method, pathname: url.pathname, searchParams: url.searchParams, body: async () => body };
};

describe('the console routes', () => {
  it('serves the page as HTML and the functions as JSON', async () => {
    const { state } = stateOf();
    const page = await routeConsole(state, request('GET', '/'));
    expect(page.type).toBe('text/html');
    expect(String(page.body)).toContain('<html');
    const functions = await routeConsole(state, request('GET', '/api/functions'));
    expect(functions.body).toEqual({ functions: [{ name: 'get_order', registered: null, jsonSchema: {} }] });
  });

  it('lists the accounts by name and address, never with a key', async () => {
    const { state } = stateOf();
    const answer = await routeConsole(state, request('GET', '/api/accounts'));
    expect(answer.body).toEqual({
      accounts: [
        { name: 'default', first: true, baseUrl: ACCOUNTS[0]?.url },
        { name: 'acme', first: false, baseUrl: ACCOUNTS[1]?.url },
      ],
    });
    expect(JSON.stringify(answer.body)).not.toContain('key-');
  });

  it('refuses a call whose account is not a name, or names no account, before asking for a url', async () => {
    const { state, asked } = stateOf();
    const notAName = await routeConsole(state, request('POST', '/api/call/get_order', { account: 3 }));
    expect(notAName.status).toBe(400);
    const unknown = await routeConsole(state, request('POST', '/api/call/get_order', { account: 'globex' }));
    expect(unknown).toEqual({
      status: 400,
      body: { error: 'No account "globex" on the local platform: default, acme.' },
    });
    expect(asked).toEqual([]);
  });

  it('answers 404 for a function that is not served', async () => {
    const { state, asked } = stateOf();
    const answer = await routeConsole(state, request('POST', '/api/call/get_order', { account: 'acme' }));
    expect(answer).toEqual({ status: 404, body: { error: 'No function named "get_order" is served.' } });
    expect(asked).toEqual(['get_order']);
  });

  it('starts a new conversation of the same customer on POST, and keeps it on GET', async () => {
    const { state } = stateOf();
    const first = await routeConsole(state, request('GET', '/api/conversation'));
    expect(first.body).toEqual({ conversation: { contactId: 'c1', conversationId: 'conv', channel: 'sms' } });
    await routeConsole(state, request('POST', '/api/conversation'));
    const second = await routeConsole(state, request('GET', '/api/conversation'));
    expect(second.body).toEqual({ conversation: { contactId: 'c1', conversationId: 'conv-2', channel: 'sms' } });
  });

  it('asks the Worker no approvals before its log showed one asked', async () => {
    const { state, asked } = stateOf({ workerLog: () => [] });
    const answer = await routeConsole(state, request('POST', '/api/approvals', { code: 'X1', decision: 'approve' }));
    expect(answer).toEqual({ status: 200, body: { approvals: [] } });
    expect(asked).toEqual([]);
  });

  it('answers 404 for any other method or path (a call is a POST)', async () => {
    const { state } = stateOf();
    expect((await routeConsole(state, request('GET', '/api/call/get_order'))).status).toBe(404);
    expect((await routeConsole(state, request('DELETE', '/api/calls'))).status).toBe(404);
    expect((await routeConsole(state, request('GET', '/nothing'))).status).toBe(404);
  });
});
