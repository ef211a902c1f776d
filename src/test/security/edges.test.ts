import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureLogs, guarded, prototypeSnapshot, runs, type Sent, violations } from './audit.ts';
import { deepJson, POLLUTING_MEMBERS } from './fuzz-arbitraries.ts';
import { TEST_FUNCTIONS, type TestFunctionName } from './fuzz-functions.ts';
import { FUNCTIONS_SECRET, keyOf, ORIGIN, post, workerOf } from './harness.ts';

const names = Object.keys(TEST_FUNCTIONS) as TestFunctionName[];
const fetch = workerOf(Object.fromEntries(names.map((n) => [n, guarded(n, TEST_FUNCTIONS[n])])));

let stop: () => void = () => {};
beforeAll(() => {
  stop = captureLogs();
});
afterAll(() => stop());

describe('edge cases the fuzzer reaches only rarely', () => {
  it('runs an argument-logging function given a 30 000-deep array, without a 500', async () => {
    const before = runs.length;
    const response = await fetch(await post('fuzz_logged', `{"note":"deep","extra":${deepJson(30_000, 'array')}}`));
    expect(response.status).toBe(200);
    expect(runs.length).toBe(before + 1);
  });

  it('hands a handler plain objects when the body plants __proto__, constructor and prototype', async () => {
    const before = runs.length;
    const response = await fetch(await post('fuzz_loose', `{${POLLUTING_MEMBERS},"id":"x"}`));
    expect(response.status).toBe(200);
    expect(runs.slice(before)).toEqual([{ fn: 'fuzz_loose', problems: [], threw: false }]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does the same for __proto__ in the query string of a GET', async () => {
    const key = await keyOf('fuzz_loose');
    const query = `__proto__=x&__proto__%5Bpolluted%5D=1&constructor=y&id=z&key=${key}`;
    const response = await fetch(new Request(`${ORIGIN}/functions/fuzz_loose?${query}`));
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('treats a body that claims gzip but is not as plain text, not as a crash', async () => {
    const response = await fetch(await post('fuzz_loose', '{"id":"x"}', { 'content-encoding': 'gzip' }));
    expect([200, 400]).toContain(response.status);
  });
});

describe('the fuzz auditor (so a clean fuzz run means something)', () => {
  const sent: Sent = {
    fn: 'fuzz_record',
    method: 'POST',
    path: '/functions/fuzz_record',
    headers: {},
    argumentValues: [],
  };
  const base = { sent, ran: [], lines: [], secrets: [FUNCTIONS_SECRET], loggingFunctions: new Set<string>() };
  const answer = (body: string, status: number, headers: Record<string, string> = { 'x-request-id': 'r-12345678' }) =>
    new Response(body, { status, headers: { 'content-type': 'application/json', ...headers } });
  const error = (message = 'no') => JSON.stringify({ error: { code: 'x', message, requestId: 'r-12345678' } });

  it('passes a well-formed refusal', async () => {
    expect(await violations({ ...base, response: answer(error(), 422), snapshot: prototypeSnapshot() })).toEqual([]);
  });

  it('flags a 500 no handler caused, a status outside the contract, and a missing request id', async () => {
    const snapshot = prototypeSnapshot();
    expect(await violations({ ...base, response: answer(error(), 500), snapshot })).toContain(
      'a 500 that no handler caused',
    );
    expect((await violations({ ...base, response: answer(error(), 418), snapshot })).join()).toMatch(
      /is not in docs\/platform-contract.md/,
    );
    expect(await violations({ ...base, response: answer(error(), 400, {}), snapshot })).toContain('no X-Request-Id');
  });

  it('flags a stack trace, a secret, a wrong error shape and a handler given invalid arguments', async () => {
    const snapshot = prototypeSnapshot();
    const stack = error('Error: x\n    at handler (functions/a.ts:3:9)');
    expect(await violations({ ...base, response: answer(stack, 422), snapshot })).toContain(
      'a stack trace in the answer',
    );
    expect((await violations({ ...base, response: answer(error(FUNCTIONS_SECRET), 422), snapshot })).join()).toMatch(
      /a secret in the answer/,
    );
    expect((await violations({ ...base, response: answer('{"message":"x"}', 422), snapshot })).join()).toMatch(
      /not the JSON error shape/,
    );
    const ran = [{ fn: 'fuzz_record', problems: ['fails its schema'], threw: false }];
    expect((await violations({ ...base, ran, response: answer('{}', 200), snapshot })).join()).toMatch(
      /ran with arguments/,
    );
  });

  it('flags an argument value or a secret in the logs, and a changed prototype', async () => {
    const withValue = { ...sent, argumentValues: ['jane.doe@example.com'] };
    const lines = ['{"event":"x","email":"jane.doe@example.com"}'];
    const found = await violations({
      ...base,
      sent: withValue,
      lines,
      response: answer('{}', 200),
      snapshot: prototypeSnapshot(),
    });
    expect(found.join()).toMatch(/logged without logArguments/);
    const leaked = await violations({
      ...base,
      lines: [FUNCTIONS_SECRET],
      response: answer('{}', 200),
      snapshot: prototypeSnapshot(),
    });
    expect(leaked.join()).toMatch(/a secret in the logs/);
    const snapshot = prototypeSnapshot();
    Object.defineProperty(Object.prototype, 'fuzzProbe', { value: 1, configurable: true });
    try {
      expect(await violations({ ...base, response: answer('{}', 200), snapshot })).toContain(
        'Object.prototype changed',
      );
    } finally {
      delete (Object.prototype as Record<string, unknown>).fuzzProbe;
    }
  });
});
