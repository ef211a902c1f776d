import { introspectWorkflow } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { conversationFeatures } from '../../conversations/features.ts';
import { answerWithinForTests, DEFERRED_RETENTION } from '../../conversations/later.ts';
import type { DeferredParams } from '../../conversations/params.ts';
import { DEFAULT_FAILURE } from '../../conversations/workflow.ts';
import { createWorker } from '../../createWorker.ts';
import { defineFunction } from '../../define.ts';
import type { Env } from '../../env.ts';
import { FunctionError } from '../../errors.ts';
import { setLogSink } from '../../log.ts';
import { createPlatformClient } from '../../platform/client/client.ts';
import { withEnv } from '../../testing/call.ts';
import { settleDeferred } from '../../testing/conversations.ts';
import { mockOutbound, type Outbound } from '../../testing/outbound.ts';
import { ExpectedFault } from '../expectedFault.ts';
import { env } from '../helpers.ts';

const PLATFORM = 'https://platform.later.test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const optedOut = new Set<string>();
/**
 * How long each tag's work takes in the call (`ms`) and as deferred work (`deferredMs`, default 10),
 * and how many of its attempts fail first. A call to defer takes seconds in the call, so no timer
 * of a loaded machine can make it look finished in time.
 */
const plan = new Map<string, { ms: number; deferredMs?: number; failures?: number; refuse?: boolean }>();
const attempts = new Map<string, number>();

/** The work of a `later_*` function for `tag`, as `plan` says. */
const stockCheck = async (
  { tag }: { tag: string },
  { signal, deferred }: { signal: AbortSignal; deferred?: boolean | undefined },
) => {
  const attempt = (attempts.get(tag) ?? 0) + 1;
  attempts.set(tag, attempt);
  const { ms, deferredMs = 10, failures = 0, refuse } = plan.get(tag) ?? { ms: 0 };
  await scheduler.wait(deferred ? deferredMs : ms, { signal });
  if (refuse) throw new FunctionError(404, 'no_such_item', 'No such item.');
  if (attempt <= failures) throw new ExpectedFault('warehouse crashed');
  return { inStock: 3, summary: `3 in stock (${tag})` };
};

const worker = createWorker({
  conversations: conversationFeatures,
  functions: {
    later_stock: defineFunction({
      description: 'Checks stock with a slow warehouse, for the tests: may answer later.',
      parameters: z.object({ tag: z.string() }),
      effect: 'read',
      timeoutMs: 5_000,
      handler: stockCheck,
      later: {
        answerWithinMs: 200,
        interim: 'Checking with the warehouse; the customer gets a message here in a minute.',
        message: (result) => result.summary,
        retries: 3,
        failure: (refusal) => (refusal ? `Refused: ${refusal.code}` : 'Sorry, the warehouse did not answer.'),
      },
    }),
    // Waits 8 s before it defers: a test that sees it defer sooner set answerWithinMs in settleDeferred.
    later_patient: defineFunction({
      description: 'Checks stock patiently, for the tests.',
      parameters: z.object({ tag: z.string() }),
      effect: 'read',
      timeoutMs: 10_000,
      handler: stockCheck,
      later: { answerWithinMs: 8_000, interim: 'Checking; a message follows.', message: (result) => result.summary },
    }),
    // Its instance is created 600 ms before its 1 s deadline (a platform call's lead, src/conversations/later.ts);
    // its work ends 500 ms after that, 100 ms before the deadline.
    later_edge: defineFunction({
      description: 'Finishes just before its deadline, for the tests.',
      parameters: z.object({ tag: z.string() }),
      effect: 'read',
      timeoutMs: 5_000,
      handler: async ({ tag }) => {
        await sleep(900);
        return { done: tag };
      },
      later: {
        answerWithinMs: 1_000,
        interim: 'Checking with the warehouse; the customer gets a message here in a minute.',
        message: (result) => result.done,
      },
    }),
  },
  platform: (_env, signal) => createPlatformClient({ baseUrl: PLATFORM, apiKey: 'k', signal }),
  mayMessage: (_env, { contactId }) => !optedOut.has(contactId),
});
const { call } = withEnv(worker, env as Env);

let outbound: Outbound;
let sent: Array<{ contactId: string; channel: string; text: string }>;
let messageAnswer: (request: Request) => Response | Promise<Response>;
beforeEach(() => {
  sent = [];
  messageAnswer = () => Response.json({ id: `msg_${sent.length}` }, { status: 201 });
  outbound = mockOutbound().on('POST', `${PLATFORM}/v1/messages`, async (request) => {
    sent.push((await request.clone().json()) as (typeof sent)[number]);
    return messageAnswer(request);
  });
});
afterEach(() => outbound.restore());

const to = (tag: string) => ({ contactId: `ct_${tag}`, conversationId: `cv_${tag}`, channel: 'whatsapp' });

/** Calls later_stock for `tag`; for a deferred call, waits for its workflow instance to finish. */
const deferred = async (tag: string, extra: object = to(tag)) => {
  const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
  try {
    await workflows.modifyAll(async (m) => {
      await m.disableRetryDelays();
    });
    const started = Date.now();
    const response = await call('later_stock', { tag, ...extra });
    const tookMs = Date.now() - started;
    const body = await response.json();
    const instances = await workflows.get();
    const outputs: unknown[] = [];
    for (const instance of instances) {
      await instance.waitForStatus('complete');
      outputs.push(await instance.getOutput());
    }
    return { status: response.status, body, tookMs, outputs };
  } finally {
    await workflows.dispose();
  }
};

describe('a function that may answer later', () => {
  it('answers normally, with no follow-up, when the work finishes in time', async () => {
    plan.set('fast', { ms: 10 });
    const result = await deferred('fast');
    expect(result.body).toEqual({ inStock: 3, summary: '3 in stock (fast)' });
    expect(result.outputs).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('answers normally, sends nothing and spends no follow-up, when the work finishes just before answerWithinMs', async () => {
    const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
    try {
      await workflows.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
      // Two conversations of one contact at once: as many follow-ups of a function as a window allows.
      const edges = await Promise.all(
        ['edge1', 'edge2'].map((tag) => call('later_edge', { tag, ...to('edge'), conversationId: `cv_${tag}` })),
      );
      expect(await Promise.all(edges.map((response) => response.json()))).toEqual([
        { done: 'edge1' },
        { done: 'edge2' },
      ]);
      // The instances were already created when the work finished; they are cancelled and send
      // nothing: they ended (stopped, not completed), so nothing can come from them after this.
      const instances = await workflows.get();
      expect(instances).toHaveLength(2);
      for (const instance of instances) await instance.waitForStatus('terminated');
      expect(sent).toEqual([]);
      // Nothing was sent, so nothing was spent: two more deferred calls of the contact (of its three
      // follow-ups a window) still message it.
      for (const tag of ['edge_after1', 'edge_after2']) plan.set(tag, { ms: 4_000 });
      const afters = await Promise.all(
        ['edge_after1', 'edge_after2'].map((tag) =>
          call('later_stock', { tag, ...to('edge'), conversationId: `cv_${tag}` }),
        ),
      );
      for (const response of afters) expect(await response.json()).toMatchObject({ status: 'pending' });
      // The first two instances were terminated: wait for the two messages themselves.
      await vi.waitFor(() => expect(sent).toHaveLength(2), { timeout: 10_000, interval: 50 });
      expect(sent.map((message) => message.text).sort()).toEqual([
        '3 in stock (edge_after1)',
        '3 in stock (edge_after2)',
      ]);
    } finally {
      await workflows.dispose();
    }
  });

  it('answers the interim within answerWithinMs and messages the customer the result once', async () => {
    plan.set('slow', { ms: 4_000 });
    const result = await deferred('slow');
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      status: 'pending',
      message: 'Checking with the warehouse; the customer gets a message here in a minute.',
    });
    // 200 ms on an idle machine; the bound leaves room for a loaded one, far below the 4 s of work.
    expect(result.tookMs).toBeLessThan(2_000);
    expect(result.outputs).toEqual([{ work: 'done', message: 'sent' }]);
    expect(sent).toEqual([{ contactId: 'ct_slow', channel: 'whatsapp', text: '3 in stock (slow)' }]);
  });

  it("logs where a deferred call's interim spent its time: the claim, the create, and how late it left", async () => {
    plan.set('timed', { ms: 4_000 });
    const lines: Record<string, unknown>[] = [];
    const restore = setLogSink((line) => lines.push(JSON.parse(line)));
    let result: Awaited<ReturnType<typeof deferred>>;
    try {
      result = await deferred('timed');
    } finally {
      setLogSink(restore);
    }
    const line = lines.find((l) => l.event === 'call_deferred');
    expect(line).toMatchObject({
      answerWithinMs: 200,
      claimMs: expect.any(Number),
      createMs: expect.any(Number),
      lateMs: expect.any(Number),
    });
    const { claimMs, createMs, lateMs } = line as { claimMs: number; createMs: number; lateMs: number };
    for (const ms of [claimMs, createMs, lateMs]) expect(ms).toBeGreaterThanOrEqual(0);
    // The stages are within the call the caller timed: 200 ms plus whatever came late.
    expect(claimMs + createMs).toBeLessThanOrEqual(result.tookMs);
    expect(lateMs).toBeLessThanOrEqual(result.tookMs);
  });

  it('creates its workflow instance with a bounded retention (docs/security.md, workflow data)', async () => {
    plan.set('kept', { ms: 4_000 });
    const workflow = (env as Env).DEFERRED_CALLS as Workflow<DeferredParams>;
    const created: WorkflowInstanceCreateOptions<DeferredParams>[] = [];
    const recording = {
      create: (options: WorkflowInstanceCreateOptions<DeferredParams>) => {
        created.push(options);
        return workflow.create(options);
      },
      get: (id: string) => workflow.get(id),
    } as unknown as Workflow<DeferredParams>;
    const workflows = await introspectWorkflow(workflow);
    try {
      const response = await withEnv(worker, { ...(env as Env), DEFERRED_CALLS: recording }).call('later_stock', {
        tag: 'kept',
        ...to('kept'),
      });
      expect(await response.json()).toMatchObject({ status: 'pending' });
      expect(created.map((options) => options.retention)).toEqual([DEFERRED_RETENTION]);
      expect(DEFERRED_RETENTION).toEqual({ successRetention: '1 day', errorRetention: '3 days' });
      for (const instance of await workflows.get()) await instance.waitForStatus('complete');
    } finally {
      await workflows.dispose();
    }
  });

  it('shares one instance and one follow-up among repeats of a call in one conversation (a barge-in, a reissue)', async () => {
    plan.set('again', { ms: 4_000 });
    const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
    try {
      await workflows.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
      const first = await call('later_stock', { tag: 'again', ...to('again') });
      // A reissue after the interim, and a barge-in of two at once.
      const repeats = await Promise.all([
        call('later_stock', { tag: 'again', ...to('again') }),
        call('later_stock', { tag: 'again', ...to('again') }),
      ]);
      const [answer, ...others] = await Promise.all([first, ...repeats].map((r) => r.json()));
      expect(answer).toMatchObject({ status: 'pending' });
      expect(others).toEqual([answer, answer]);
      const instances = await workflows.get();
      expect(instances).toHaveLength(1);
      for (const instance of instances) await instance.waitForStatus('complete');
      expect(sent.map((m) => m.text)).toEqual(['3 in stock (again)']);
      // Two at the very same moment: one instance, one message.
      plan.set('pair', { ms: 4_000 });
      await Promise.all([
        call('later_stock', { tag: 'pair', ...to('pair') }),
        call('later_stock', { tag: 'pair', ...to('pair') }),
      ]);
      expect(await workflows.get()).toHaveLength(2);
      // Another conversation of the same contact is not a repeat.
      await call('later_stock', { tag: 'again', ...to('again'), conversationId: 'cv_other' });
      expect(await workflows.get()).toHaveLength(3);
      for (const instance of await workflows.get()) await instance.waitForStatus('complete');
      expect(sent.filter((m) => m.contactId === 'ct_pair')).toHaveLength(1);
    } finally {
      await workflows.dispose();
    }
  });

  it('sends one contact at most two follow-ups of a function in its window, however many calls name it: the rest run as plain calls', async () => {
    const tags = Array.from({ length: 10 }, (_, i) => `burst${i}`);
    for (const tag of tags) plan.set(tag, { ms: 1_500 });
    const workflows = await introspectWorkflow((env as Env).DEFERRED_CALLS as Workflow);
    try {
      await workflows.modifyAll(async (m) => {
        await m.disableRetryDelays();
      });
      // Ten conversations (a url holder may claim any) naming one contact, at once.
      const answers = await Promise.all(
        tags.map(async (tag) =>
          (await call('later_stock', { tag, ...to('burst'), conversationId: `cv_${tag}` })).json(),
        ),
      );
      const pendings = answers.filter((answer) => (answer as { status?: string }).status === 'pending');
      expect(pendings).toHaveLength(2);
      expect(answers.filter((answer) => (answer as { inStock?: number }).inStock === 3)).toHaveLength(8);
      for (const instance of await workflows.get()) await instance.waitForStatus('complete');
      expect(sent.filter((message) => message.contactId === 'ct_burst')).toHaveLength(2);
    } finally {
      await workflows.dispose();
    }
  });

  it('retries failing work and still sends one message', async () => {
    plan.set('flaky', { ms: 4_000, failures: 2 });
    const result = await deferred('flaky');
    expect(result.outputs).toEqual([{ work: 'done', message: 'sent' }]);
    expect(sent.map((m) => m.text)).toEqual(['3 in stock (flaky)']);
  });

  it('sends one honest message when the work finally fails, and keeps the failure', async () => {
    plan.set('down', { ms: 4_000, failures: 99 });
    const result = await deferred('down');
    expect(result.outputs).toEqual([{ work: 'failed', message: 'sent' }]);
    expect(sent.map((m) => m.text)).toEqual(['Sorry, the warehouse did not answer.']);
  });

  it("turns the handler's refusal into the author's message, without retrying it", async () => {
    plan.set('refused', { ms: 4_000, refuse: true });
    attempts.delete('refused');
    const result = await deferred('refused');
    expect(result.outputs).toEqual([{ work: 'failed', message: 'sent' }]);
    expect(sent.map((m) => m.text)).toEqual(['Refused: no_such_item']);
    // The call's own attempt, then one in the workflow.
    expect(attempts.get('refused')).toBe(2);
  });

  it('sends nothing to a contact who opted out', async () => {
    plan.set('stopped', { ms: 4_000 });
    optedOut.add('ct_stopped');
    const result = await deferred('stopped');
    expect(result.outputs).toEqual([{ work: 'done', message: 'opted_out' }]);
    expect(sent).toEqual([]);
  });

  it('never sends twice when the platform fails the POST without a clear answer', async () => {
    plan.set('lost', { ms: 4_000 });
    messageAnswer = () => new Response('upstream reset', { status: 502 });
    const result = await deferred('lost');
    expect(result.outputs).toEqual([{ work: 'done', message: 'ambiguous' }]);
    expect(sent).toHaveLength(1);
  });

  it('retries a send the platform clearly refused, then sends once', async () => {
    plan.set('throttled', { ms: 4_000 });
    let refusals = 0;
    messageAnswer = () =>
      refusals++ < 1
        ? Response.json({ error: 'rate limited' }, { status: 429, headers: { 'retry-after': '0' } })
        : Response.json({ id: 'msg_ok' }, { status: 201 });
    const result = await deferred('throttled');
    expect(result.outputs).toEqual([{ work: 'done', message: 'sent' }]);
    expect(new Set(sent.map((m) => m.text)).size).toBe(1);
  });

  it('does not defer without a channel to answer on: the call simply runs', async () => {
    plan.set('nochannel', { ms: 400 });
    const result = await deferred('nochannel', { contactId: 'ct_x', conversationId: 'cv_x' });
    expect(result.body).toEqual({ inStock: 3, summary: '3 in stock (nochannel)' });
    expect(result.outputs).toEqual([]);
    await sleep(0);
    expect(sent).toEqual([]);
  });

  it('defers sooner inside settleDeferred(act, { answerWithinMs }), and only there', async () => {
    // 9 s of work in the call: with its own answerWithinMs it would answer the interim after 8 s.
    plan.set('soon', { ms: 9_000 });
    const started = Date.now();
    const { result, outcomes } = await settleDeferred(
      async () => {
        const response = await call('later_patient', { tag: 'soon', ...to('soon') });
        return { tookMs: Date.now() - started, body: await response.json() };
      },
      { answerWithinMs: 20 },
    );
    expect(result.body).toMatchObject({ status: 'pending' });
    expect(result.tookMs).toBeLessThan(4_000);
    expect(outcomes).toEqual([{ work: 'done', message: 'sent' }]);
    expect(answerWithinForTests.ms).toBeUndefined();
    // Set only around act, even when act throws.
    await expect(
      settleDeferred(
        async () => {
          throw new Error('act failed');
        },
        { answerWithinMs: 20 },
      ),
    ).rejects.toThrow('act failed');
    expect(answerWithinForTests.ms).toBeUndefined();
    await expect(settleDeferred(async () => 1, { answerWithinMs: 0 })).rejects.toThrow(/whole number of ms above 0/);
  });

  it('the DEFAULT_FAILURE apologises without promising anything', () => {
    expect(DEFAULT_FAILURE).toMatch(/^Sorry/);
  });
});
