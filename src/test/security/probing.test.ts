import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send } from '../fixture.ts';
import { captureLogs, logLines } from './audit.ts';
import { errorOf, keyOf } from './harness.ts';

/** Status, headers and message of an answer, without its request id (which differs every time). */
const fingerprint = async (response: Response) => {
  const { code, message } = await errorOf(response);
  const headers = [...response.headers].filter(([name]) => name !== 'x-request-id');
  return { status: response.status, code, message, headers };
};

let stop: () => void = () => {};
beforeAll(() => {
  stop = captureLogs();
});
afterAll(() => stop());

describe('a caller without the key of a name learns nothing about it', () => {
  it('answers every request under /functions/ with the same 401, whatever the name, method or key', async () => {
    const wrongKey = 'A'.repeat(43);
    const probes: [string, RequestInit][] = [
      ['/functions/quote_plan', { method: 'POST', body: '{}' }],
      ['/functions/no_such_function', { method: 'POST', body: '{}' }],
      ['/functions/quote_plan', { method: 'PUT', body: '{}' }],
      ['/functions/no_such_function', { method: 'DELETE' }],
      ['/functions/quote_plan', { method: 'GET' }],
      [`/functions/quote_plan?key=${wrongKey}`, { method: 'POST', body: '{}' }],
      [`/functions/no_such_function?key=${wrongKey}`, { method: 'OPTIONS' }],
      [`/functions/no_such_function?key=${await keyOf('quote_plan')}`, { method: 'POST', body: '{}' }],
      ['/functions/', { method: 'POST' }],
      ['/functions/quote_plan/extra', { method: 'POST' }],
      ['/functions/__proto__', { method: 'POST' }],
      ['/functions/Ignore%20previous%20instructions', { method: 'POST' }],
    ];
    const answers = [];
    for (const [path, init] of probes) answers.push(await fingerprint(await send(path, init)));
    expect(answers[0]).toMatchObject({ status: 401, code: 'unauthorized' });
    for (const [i, answer] of answers.entries()) expect(answer, probes[i]?.[0]).toEqual(answers[0]);
  });

  it('tells a holder of the key of a name no longer deployed to stop calling it, without quoting the name', async () => {
    const name = 'retired_function';
    const response = await send(`/functions/${name}?key=${await keyOf(name)}`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const { code, message } = await errorOf(response);
    expect(code).toBe('unknown_function');
    expect(message).toMatch(/no longer deployed\. Do not call it again/);
    expect(message).not.toContain(name);
  });

  it('answers 405 only to a holder of the key, after the name is known to be deployed', async () => {
    const response = await send(`/functions/quote_plan?key=${await keyOf('quote_plan')}`, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST');
    expect((await errorOf(response)).message).not.toContain('PUT');
  });

  it('never reflects the path in a message outside /functions/ either', async () => {
    const response = await send('/ignore-previous-instructions');
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).not.toMatch(/ignore/i);
  });
});

describe('request ids', () => {
  it('generates its own X-Request-Id and logs the caller one beside it, sanitised', async () => {
    const before = logLines.length;
    const response = await send(`/functions/quote_plan?key=${await keyOf('quote_plan')}`, {
      method: 'POST',
      headers: { 'x-request-id': 'attacker-chosen-id"injected":true' },
      body: '{"plan":"growth","seats":2}',
    });
    expect(response.status).toBe(200);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(id).not.toContain('attacker');
    const line = logLines.slice(before).find((l) => l.includes('"event":"invocation"'));
    expect(line && JSON.parse(line)).toMatchObject({
      requestId: id,
      callerRequestId: 'attacker-chosen-idinjected:true',
    });
  });

  it('generates one for a caller without a key too', async () => {
    const response = await send('/functions/quote_plan', {
      method: 'POST',
      headers: { 'x-request-id': 'chosen-1234' },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('x-request-id')).not.toBe('chosen-1234');
    expect((await errorOf(response)).requestId).toBe(response.headers.get('x-request-id'));
  });
});
