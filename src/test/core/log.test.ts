import { afterEach, describe, expect, it } from 'vitest';
import { setLogSink } from '../../log.ts';
import { call } from '../fixture.ts';

const lines: Record<string, unknown>[] = [];
setLogSink((line) => lines.push(JSON.parse(line)));
afterEach(() => {
  lines.length = 0;
});

describe('the structured logger', () => {
  it('writes one JSON line per invocation with function, outcome, status and duration', async () => {
    const res = await call('quote_plan', { plan: 'scale', seats: 42 });
    const line = lines.find((l) => l.event === 'invocation');
    expect(line).toMatchObject({
      level: 'info',
      function: 'quote_plan',
      outcome: 'ok',
      status: 200,
      requestId: res.headers.get('x-request-id'),
    });
    expect(typeof line?.durationMs).toBe('number');
  });

  it('marks refusals and never logs argument values of a function that did not opt in', async () => {
    await call('quote_plan', { plan: 'secret-plan-name', seats: 987654 });
    expect(lines.find((l) => l.event === 'invocation')).toMatchObject({ outcome: 'refused', status: 422 });
    const all = JSON.stringify(lines);
    expect(all).not.toContain('secret-plan-name');
    expect(all).not.toContain('987654');
    expect(all).not.toContain('test-functions-secret');
  });
});
