// npm run tail: wrangler tail's JSON events (indented, split anywhere by the pipe) -> one line per
// call from the Worker's own `invocation` log line, filtered by function and status.
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { callOf, formatCall } from '../../tail/format.ts';
import { HELP, runTail } from '../../tail/main.ts';
import { jsonSplitter } from '../../tail/split.ts';

const logLine = (fields: Record<string, unknown>) => ({
  message: [JSON.stringify({ level: 'info', ...fields, time: '2026-11-22T04:20:01.000Z' })],
  level: 'log',
  timestamp: 1_795_000_000_000,
});

/** A tail event as wrangler tail --format json prints it (4-space indented). */
const event = (name: string, status: number, extra: { logs?: unknown[]; exceptions?: unknown[] } = {}) => ({
  outcome: 'ok',
  scriptName: 'agent-functions',
  exceptions: extra.exceptions ?? [],
  logs: [
    ...(extra.logs ?? []),
    logLine({
      event: 'invocation',
      function: name,
      requestId: `req-${name}`,
      outcome: status === 200 ? 'ok' : status >= 500 ? 'error' : 'refused',
      status,
      durationMs: 12,
    }),
  ],
  eventTimestamp: Date.UTC(2026, 10, 22, 4, 20, 1),
  event: {
    request: { url: `https://fns.example.dev/functions/${name}?key=SECRETKEY`, method: 'POST', headers: {} },
    response: { status },
  },
});

const printed = (events: unknown[]) => events.map((e) => JSON.stringify(e, null, 4)).join('\n');

const run = async (argv: string[], input: string, chunk = 7) => {
  let out = '';
  let err = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(data, _encoding, done) {
        append(String(data));
        done();
      },
    });
  const pieces = input.match(new RegExp(`[\\s\\S]{1,${chunk}}`, 'g')) ?? [];
  const code = await runTail(argv, {
    stdout: sink((text) => {
      out += text;
    }),
    stderr: sink((text) => {
      err += text;
    }),
    source: () => Readable.from(pieces),
  });
  return { code, out, err };
};

describe('npm run tail', () => {
  it('prints one line per call: time, status, function, duration and request id', async () => {
    const { code, out } = await run([], printed([event('quote_plan', 200), event('cancel_plan', 422)]));
    expect(code).toBe(0);
    expect(out).toBe(
      [
        '2026-11-22T04:20:01.000Z  200  quote_plan                  12 ms  req req-quote_plan',
        '2026-11-22T04:20:01.000Z  422  cancel_plan                 12 ms  req req-cancel_plan',
        '',
      ].join('\n'),
    );
  });

  it('never prints the key in the query string', async () => {
    const manifest = {
      ...event('x', 200),
      logs: [],
      event: { request: { url: 'https://f.dev/functions?key=SECRETKEY', method: 'GET' }, response: { status: 200 } },
    };
    const { out } = await run(['--json'], printed([event('quote_plan', 200), manifest]));
    expect(out).not.toContain('SECRETKEY');
    expect(out).toContain('"path":"/functions"');
  });

  it('keeps only the functions and statuses asked for', async () => {
    const input = printed([event('quote_plan', 200), event('quote_plan', 503), event('tell_time', 500)]);
    const { out } = await run(['--function', 'quote_plan', '--status', '5xx'], input);
    expect(out.trim().split('\n')).toEqual([expect.stringMatching(/ 503 {2}quote_plan /)]);
    const { out: exact } = await run(['--status', '500,200'], input);
    expect(exact.trim().split('\n')).toHaveLength(2);
  });

  it("keeps only the accounts asked for, and names each call's account", async () => {
    const inAccount = (account: string, status: number) => {
      const base = event('find_parcel', status);
      const line = JSON.parse((base.logs.at(-1) as { message: string[] }).message[0] as string);
      return { ...base, logs: [logLine({ ...line, account })] };
    };
    const input = printed([inAccount('client-acme', 502), inAccount('bistro', 200), inAccount('client-acme', 200)]);
    const { out } = await run(['--account', 'client-acme', '--status', '5xx'], input);
    expect(out.trim().split('\n')).toEqual([
      expect.stringMatching(/ 502 {2}find_parcel .* account client-acme {2}req /),
    ]);
  });

  it('adds the warnings, errors and exceptions of a call, indented', async () => {
    const failing = event('tell_time', 500, {
      logs: [logLine({ level: 'error', event: 'handler_failed', error: 'TypeError' })],
      exceptions: [{ name: 'Error', message: 'boom' }],
    });
    const { out } = await run([], printed([failing]));
    expect(out.split('\n').slice(1, 3)).toEqual(['    error handler_failed (TypeError)', '    exception Error: boom']);
  });

  it('prints control characters from a log as harmless text, so no line can be forged', async () => {
    const hostile = event('quote_plan\n2026-11-22T00:00:00.000Z  200  forged', 200);
    const { out } = await run([], printed([hostile]));
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toContain('quote_plan\uFFFD2026');
  });

  it('writes JSON lines with --json', async () => {
    const { out } = await run(['--json'], printed([event('quote_plan', 200)]));
    expect(JSON.parse(out)).toMatchObject({
      function: 'quote_plan',
      status: 200,
      durationMs: 12,
      requestId: 'req-quote_plan',
    });
  });

  it('shows --help and refuses bad flags with one line', async () => {
    expect((await run(['--help'], '')).out).toBe(HELP);
    expect(HELP).toContain('--env NAME');
    const bad = await run(['--status', 'bad'], '');
    expect(bad).toMatchObject({
      code: 1,
      err: '--status takes codes such as 404 or classes such as 5xx, not "bad". See npm run tail -- --help.\n',
    });
    expect((await run(['--env', 'Prod;rm'], '')).code).toBe(1);
  });
});

describe('jsonSplitter', () => {
  it('finds each value in chunks split anywhere, braces inside strings included, banners dropped', () => {
    const text = 'Connected to agent-functions\n{"a":"}{\\"x"}\n{"b":[1,{"c":2}]}';
    for (let size = 1; size <= text.length; size++) {
      const split = jsonSplitter();
      const values: string[] = [];
      for (let i = 0; i < text.length; i += size) values.push(...split.push(text.slice(i, i + size)));
      expect(values.map((v) => JSON.parse(v))).toEqual([{ a: '}{"x' }, { b: [1, { c: 2 }] }]);
    }
  });
});

describe('callOf', () => {
  it('describes a request that reached no function by method and path', () => {
    const call = callOf({
      outcome: 'ok',
      logs: [],
      eventTimestamp: 0,
      event: { request: { url: 'https://f.dev/nope?key=k', method: 'GET' }, response: { status: 404 } },
    });
    expect(call).toMatchObject({ function: undefined, status: 404, outcome: 'refused', path: '/nope' });
    expect(formatCall(call as never)).toBe('1970-01-01T00:00:00.000Z  404  GET /nope');
  });

  it('ignores events that are not requests', () => {
    expect(callOf({ outcome: 'ok', event: { cron: '* * * * *' } })).toBeUndefined();
  });
});
