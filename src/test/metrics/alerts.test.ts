// Alerts (src/metrics/): the Worker's cron evaluates the rules in the FunctionHealth Durable Object
// and sends one platform message per incident to the alerts contact of the first account, through
// the platform double; one more when it clears, never two within 30 minutes, never twice.

import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { messagesOf, PLATFORM_KEY, PLATFORM_URL, seedContact, usePlatform } from 'agent-functions-cli/platform';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AccountEntry } from '../../accounts/resolve.ts';
import { serveAccounts } from '../../accounts/serve.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { createLogger } from '../../log.ts';
import type { Bucket } from '../../metrics/buckets.ts';
import { minuteOf } from '../../metrics/buckets.ts';
import type { FunctionHealth } from '../../metrics/health.ts';
import { callMetrics } from '../../metrics/index.ts';
import { RUNBOOK } from '../../metrics/notice.ts';
import { createMetricsSink } from '../../metrics/sink.ts';
import { platformFromEnv } from '../../platform/client/fromEnv.ts';
import { observe, setRecordSink } from '../../record.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { failedOf, logged, recordOf, scopedHealth, tick } from './helpers.ts';

const CONTACT = 'agency-alerts';
const ctxOf = () => createExecutionContext();
const list: AccountEntry[] = [
  { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY', baseUrlEnv: 'PLATFORM_BASE_URL' },
  { name: 'client-a', apiKeyEnv: 'CLIENT_A_KEY', baseUrl: 'https://a.platform.test' },
  // A client whose functions fail often and harmlessly: only half failing alerts.
  { name: 'client-b', apiKeyEnv: 'CLIENT_B_KEY', baseUrl: 'https://b.platform.test', alerts: { errorRate: 0.5 } },
];
const functions = {
  track_parcel: defineFunction({
    description: 'Reads an order.',
    parameters: z.object({ orderId: z.string().describe('Order id') }),
    handler: () => ({ status: 'shipped' }),
  }),
};

let previousSink: ReturnType<typeof setRecordSink>;
let worker: ReturnType<typeof createWorker>;
beforeAll(() => {
  previousSink = setRecordSink(undefined);
  worker = createWorker({
    functions,
    platform: platformFromEnv,
    accounts: serveAccounts({ list }),
    metrics: callMetrics({ accounts: { list } }),
  });
});
afterAll(() => setRecordSink(previousSink));

let outbound: Outbound | undefined;
afterEach(() => outbound?.restore());

/** A platform double with the alerts contact, a scoped FunctionHealth, and the env that reaches both. */
const setUp = (extra: Partial<Env> = {}, { seeded = true } = {}) => {
  outbound = mockOutbound();
  const platform = usePlatform(outbound);
  if (seeded)
    seedContact(platform, { id: CONTACT, name: 'Agency on call', phone: '+447700900001', channel: 'whatsapp' });
  const health = scopedHealth();
  const environment: Env = {
    ...(env as Env),
    PLATFORM_BASE_URL: PLATFORM_URL,
    PLATFORM_API_KEY: PLATFORM_KEY,
    FUNCTION_HEALTH: health,
    ALERTS_CONTACT_ID: CONTACT,
    ALERTS_CHANNEL: 'whatsapp',
    ...extra,
  };
  const stub = health.get(health.idFromName('health')) as DurableObjectStub<FunctionHealth>;
  return { platform, environment, stub, texts: () => messagesOf(platform).map((m) => m.text) };
};

// Whole minutes from the start of this minute (figures older than two hours are pruned); each
// test's figures are stamped at these.
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
const hhmm = new Date(T0).toISOString().slice(11, 16);
const at = (minutes: number) => T0 + minutes * 60_000;

/** `calls` calls of `fn` in `account` at minute `m`, `errors` of them failing with `code`. */
const calls = (
  m: number,
  account: string,
  count: number,
  errors = 0,
  code = 'store_unavailable',
  fn = 'track_parcel',
): Bucket => ({
  minute: minuteOf(at(m)),
  account,
  function: fn,
  kind: 'call',
  calls: count,
  ok: count - errors,
  refused: 0,
  errors,
  timeouts: 0,
  deferredFailures: 0,
  approvalExpiries: 0,
  codes: errors > 0 ? { [code]: errors } : {},
});

describe('the error-rate rule', () => {
  it('fires at 5 calls and 20% errors in 5 minutes, naming the account, function, figures, top code and runbook', async () => {
    const { environment, stub, platform, texts } = setUp();
    await stub.add([
      calls(0, 'client-a', 3, 1, 'store_unavailable'),
      calls(1, 'client-a', 2, 0),
      calls(1, 'client-a', 0, 0),
    ]);
    await tick(worker, environment, at(2));
    expect(texts()).toEqual([
      `Alert: client-a / track_parcel, calls failing: 1 of 5 calls failed in the last 5 minutes (20%). Top error: store_unavailable (1). Runbook: ${RUNBOOK}`,
    ]);
    expect(messagesOf(platform)[0]).toMatchObject({ contactId: CONTACT, channel: 'whatsapp' });
  });

  it('does not fire below 5 calls or below 20%, nor on figures older than the window', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([
      calls(0, 'client-a', 4, 4),
      calls(0, 'client-a', 10, 1, 'x', 'price_estimate'),
      calls(-10, 'agency', 20, 20, 'boom', 'old_function'),
    ]);
    await tick(worker, environment, at(0));
    expect(texts()).toEqual([]);
  });

  it("takes an account's own threshold from the accounts file over the project's", async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([
      calls(0, 'client-a', 10, 3),
      calls(0, 'client-b', 10, 3),
      calls(0, 'client-b', 10, 6, 'bad', 'price_estimate'),
    ]);
    await tick(worker, environment, at(1));
    expect(texts().map((text) => text.split(',')[0])).toEqual([
      'Alert: client-a / track_parcel',
      'Alert: client-b / price_estimate',
    ]);
  });

  it('takes the project thresholds of the metrics option', async () => {
    const strict = createWorker({
      functions,
      platform: platformFromEnv,
      accounts: serveAccounts({ list }),
      metrics: callMetrics({ alerts: { minCalls: 2, errorRate: 0.9 } }),
    });
    const { environment, stub, texts } = setUp();
    await stub.add([calls(0, 'client-a', 2, 2), calls(0, 'agency', 10, 8)]);
    await tick(strict, environment, at(1));
    expect(texts()).toEqual([
      expect.stringMatching(/^Alert: client-a \/ track_parcel, calls failing: 2 of 2 calls failed/),
    ]);
  });
});

describe('GET /__scheduled', () => {
  it('runs one evaluation under npm run dev, as the cron does (docs/platform-contract.md §11)', async () => {
    const { environment, stub, texts } = setUp({ AGENT_FUNCTIONS_MODE: 'development' });
    await stub.add([calls(0, 'client-a', 5, 5)]);
    const response = await worker.fetch(new Request('http://127.0.0.1:8787/__scheduled'), environment, ctxOf());
    expect(response.status).toBe(200);
    expect(texts()).toHaveLength(1);
    expect(texts()[0]).toMatch(/^Alert: client-a \/ track_parcel/);
  });

  it('is a 404 deployed, and evaluates nothing', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([calls(0, 'client-a', 5, 5)]);
    const response = await worker.fetch(new Request('https://functions.example/__scheduled'), environment, ctxOf());
    expect(response.status).toBe(404);
    expect(texts()).toEqual([]);
  });
});

describe('an incident', () => {
  it('is announced once, cleared once, and never twice within 30 minutes', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([calls(0, 'client-a', 10, 8)]);
    for (const m of [0, 1, 2, 3]) await tick(worker, environment, at(m));
    expect(texts()).toHaveLength(1);
    // Healthy again at minute 10, but the clearing waits for 30 minutes after the alert.
    await stub.add([calls(10, 'client-a', 10, 0)]);
    for (const m of [10, 11, 20, 29]) await tick(worker, environment, at(m));
    expect(texts()).toHaveLength(1);
    await stub.add([calls(30, 'client-a', 10, 0)]);
    await tick(worker, environment, at(30));
    expect(texts()).toHaveLength(2);
    expect(texts()[1]).toBe(
      `Resolved: client-a / track_parcel is healthy again (0 of 10 calls failed in the last 5 minutes (0%)). The incident opened at ${hhmm} UTC.`,
    );
    // Over: later healthy ticks send nothing more.
    await tick(worker, environment, at(31));
    expect(texts()).toHaveLength(2);
  });

  it('failing again before its clearing went out stays the same incident: no second alert', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([calls(0, 'client-a', 10, 8)]);
    await tick(worker, environment, at(0));
    await stub.add([calls(10, 'client-a', 10, 0)]);
    await tick(worker, environment, at(10));
    await stub.add([calls(20, 'client-a', 10, 9)]);
    await tick(worker, environment, at(20));
    await tick(worker, environment, at(31));
    expect(texts()).toHaveLength(1);
  });

  it('is not an incident without data: no calls, no alert; silence never clears one', async () => {
    const { environment, stub, texts } = setUp();
    await tick(worker, environment, at(0));
    expect(texts()).toEqual([]);
    await stub.add([calls(0, 'client-a', 10, 8)]);
    await tick(worker, environment, at(0));
    // No calls at all for an hour: no news, so no clearing message.
    for (const m of [10, 40, 60]) await tick(worker, environment, at(m));
    expect(texts()).toHaveLength(1);
    expect(await stub.open()).toEqual([
      expect.objectContaining({ account: 'client-a', state: 'open', notice: 'done' }),
    ]);
  });
});

describe('sending an alert', () => {
  it('retries a refused send at the next tick, and then sends it once', async () => {
    // The contact does not exist yet: the platform refuses (404), nothing was sent.
    const { environment, stub, platform, texts } = setUp({}, { seeded: false });
    await stub.add([calls(0, 'client-a', 10, 8)]);
    const { lines } = await logged(() => tick(worker, environment, at(0)));
    expect(lines.find((line) => line.event === 'alert_not_sent')).toMatchObject({
      account: 'client-a',
      notice: 'open',
    });
    seedContact(platform, { id: CONTACT, name: 'Agency on call', phone: '+447700900001', channel: 'whatsapp' });
    for (const m of [1, 2, 3]) await tick(worker, environment, at(m));
    expect(texts()).toHaveLength(1);
  });

  it('never repeats a send whose answer was lost: it may have arrived', async () => {
    const { environment, stub, platform, texts } = setUp();
    platform.setFaults({ loseCreateAnswer: { count: 1, mode: '502' } });
    await stub.add([calls(0, 'client-a', 10, 8)]);
    const { lines } = await logged(() => tick(worker, environment, at(0)));
    expect(lines.some((line) => line.event === 'alert_send_ambiguous')).toBe(true);
    for (const m of [1, 2, 3]) await tick(worker, environment, at(m));
    expect(texts()).toHaveLength(1);
  });

  it('never repeats a send cut off before its outcome was recorded (the Worker stopped)', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([calls(0, 'client-a', 10, 8)]);
    // An evaluation that handed the message out, then died before sending or settling it.
    const config = {
      project: { windowMinutes: 5, minCalls: 5, errorRate: 0.2, deferredFailures: 1, approvalExpiries: 1, off: false },
      accounts: {},
    };
    expect(await stub.evaluate(at(0), config)).toHaveLength(1);
    for (const m of [1, 2, 3, 4]) await tick(worker, environment, at(m));
    expect(texts()).toEqual([]);
    expect(await stub.open()).toEqual([expect.objectContaining({ notice: 'done' })]);
  });

  it('retries a failed evaluation at the next tick without alerting twice', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([calls(0, 'client-a', 10, 8)]);
    const broken = {
      ...environment,
      FUNCTION_HEALTH: {
        idFromName: () => {
          throw new Error('unavailable');
        },
      } as unknown as DurableObjectNamespace,
    };
    await expect(tick(worker, broken, at(0))).rejects.toThrow('unavailable');
    await tick(worker, environment, at(1));
    await tick(worker, environment, at(2));
    expect(texts()).toHaveLength(1);
  });

  it('also POSTs a Standard-Webhooks-signed copy when ALERTS_WEBHOOK_URL is set', async () => {
    const secret = `whsec_${btoa('alerts-webhook-secret-0123456789')}`;
    const { environment, stub, texts } = setUp({
      ALERTS_WEBHOOK_URL: 'https://hooks.test/alerts',
      ALERTS_WEBHOOK_SECRET: secret,
    });
    const received: Request[] = [];
    outbound?.on('POST', 'https://hooks.test/', (request) => {
      received.push(request);
      return new Response(null, { status: 204 });
    });
    await stub.add([calls(0, 'client-a', 10, 8)]);
    await tick(worker, environment, at(0));
    expect(texts()).toHaveLength(1);
    const [request] = received;
    const body = await request?.text();
    const id = request?.headers.get('webhook-id') ?? '';
    const timestamp = request?.headers.get('webhook-timestamp') ?? '';
    const key = await crypto.subtle.importKey(
      'raw',
      Uint8Array.from(atob(secret.slice(6)), (c) => c.charCodeAt(0)),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['verify'],
    );
    const signature = (request?.headers.get('webhook-signature') ?? '').replace(/^v1,/, '');
    const mac = Uint8Array.from(atob(signature), (c) => c.charCodeAt(0));
    expect(await crypto.subtle.verify('HMAC', key, mac, new TextEncoder().encode(`${id}.${timestamp}.${body}`))).toBe(
      true,
    );
    expect(JSON.parse(body ?? '{}')).toMatchObject({
      type: 'function.alert.open',
      data: { account: 'client-a', function: 'track_parcel', text: texts()[0] },
    });
  });

  it('sends at most 20 messages a tick; the rest follow at the next', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add(Array.from({ length: 25 }, (_, i) => calls(0, 'client-a', 10, 8, 'down', `fn_${i}`)));
    await tick(worker, environment, at(0));
    expect(texts()).toHaveLength(20);
    await tick(worker, environment, at(1));
    expect(texts()).toHaveLength(25);
  });
});

describe('the rules of work done later', () => {
  const later = (m: number, over: Partial<Bucket>): Bucket => ({ ...calls(m, 'client-a', 0), ...over });

  it('fires when deferred or approved work fails, and when an approval expires unanswered', async () => {
    const { environment, stub, texts } = setUp();
    await stub.add([
      later(0, { kind: 'deferred', calls: 3, errors: 1, deferredFailures: 1, codes: { timeout: 1 } }),
      later(0, { function: 'issue_credit', kind: 'approval_decision', calls: 2, approvalExpiries: 2 }),
    ]);
    await tick(worker, environment, at(0));
    expect(texts().sort()).toEqual([
      `Alert: client-a / issue_credit, approvals expiring: 2 approvals expired unanswered in the last 5 minutes. Runbook: ${RUNBOOK}`,
      `Alert: client-a / track_parcel, deferred work failing: 1 deferred or approved runs failed in the last 5 minutes. Top error: timeout (1). Runbook: ${RUNBOOK}`,
    ]);
  });
});

describe('from the observation point to the message', () => {
  it('alerts on the records of observe, the one observation point, flushed by the sink', async () => {
    const metrics = createMetricsSink({ flushDelayMs: 0 });
    const before = setRecordSink(metrics.sink);
    try {
      const { environment, texts } = setUp();
      const log = createLogger({ requestId: 'e2e' });
      for (let i = 0; i < 3; i++) observe(log, recordOf({ account: 'client-a' }), environment);
      for (let i = 0; i < 4; i++) observe(log, failedOf('store_unavailable', { account: 'client-a' }), environment);
      await metrics.flushed();
      await tick(worker, environment, Date.now());
      expect(texts()).toEqual([
        `Alert: client-a / track_parcel, calls failing: 4 of 7 calls failed in the last 5 minutes (57%). Top error: store_unavailable (4). Runbook: ${RUNBOOK}`,
      ]);
    } finally {
      setRecordSink(before);
    }
  });
});
