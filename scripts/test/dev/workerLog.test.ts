import { describe, expect, it } from 'vitest';
import { createWorkerLog } from '../../dev/workerLog.ts';

const invocation = (requestId: string) =>
  JSON.stringify({
    level: 'info',
    event: 'invocation',
    function: 'book',
    requestId,
    outcome: 'ok',
    status: 200,
    durationMs: 4,
  });

describe("the Worker's own log lines, read from wrangler dev's output", () => {
  it('reads each call and each delivery handled, across chunks, among wrangler’s other lines', () => {
    const log = createWorkerLog();
    const handled = JSON.stringify({
      level: 'info',
      event: 'event_handled',
      eventType: 'message.received',
      deliveryId: 'id:evt_1',
    });
    const output = `[wrangler:info] Ready on http://127.0.0.1:8787\n${invocation('rq_1')}\n[wrangler:info] POST /functions/book 200 OK (4ms)\n${handled}\n`;
    log.feed(output.slice(0, 70));
    log.feed(output.slice(70));
    expect(log.lines()).toEqual([
      expect.objectContaining({
        kind: 'invocation',
        name: 'book',
        requestId: 'rq_1',
        status: 200,
        outcome: 'ok',
        durationMs: 4,
      }),
      expect.objectContaining({
        kind: 'handling',
        deliveryId: 'id:evt_1',
        eventType: 'message.received',
        event: 'event_handled',
      }),
    ]);
  });

  it('reads the records of calls over HTTP and MCP as calls, and not those of work after a call or of an event', () => {
    const log = createWorkerLog();
    const record = (fields: Record<string, unknown>) =>
      `${JSON.stringify({ level: 'info', event: 'invocation', account: 'default', status: 200, outcome: 'ok', durationMs: 3, ...fields })}\n`;
    log.feed(record({ function: 'book', requestId: 'rq_1', transport: 'http', kind: 'call' }));
    log.feed(record({ function: 'book', requestId: 'rq_2', transport: 'mcp', kind: 'call' }));
    log.feed(record({ function: 'refund', requestId: 'rq_3', transport: 'http', kind: 'approval_ask' }));
    log.feed(record({ function: 'check_stock', requestId: 'rq_4', transport: 'workflow', kind: 'deferred' }));
    log.feed(record({ function: 'refund', requestId: 'rq_3', transport: 'workflow', kind: 'approval_run' }));
    log.feed(record({ function: 'deal.moved', requestId: 'msg_1', transport: 'queue', kind: 'event' }));
    // A refusal before the name and account were known is still a call someone made: shown, named by neither.
    log.feed(
      record({ function: null, account: null, requestId: 'rq_5', transport: 'http', kind: 'call', status: 401 }),
    );
    expect(log.lines().map((line) => (line.kind === 'invocation' ? line.requestId : line.kind))).toEqual([
      'rq_1',
      'rq_2',
      'rq_3',
      'rq_5',
    ]);
    expect(log.lines().at(-1)).toMatchObject({ name: '(unknown)', account: null, status: 401 });
  });

  it("reads a deferred call's steps under the call's request id, and no other line of the Worker's", () => {
    const log = createWorkerLog();
    const line = (fields: Record<string, unknown>) => `${JSON.stringify({ level: 'info', ...fields })}\n`;
    log.feed(line({ event: 'call_deferred', function: 'check_stock', requestId: 'rq_1', answerWithinMs: 2500 }));
    log.feed(line({ event: 'open_without_secret', requestId: 'rq_1' }));
    log.feed(line({ event: 'follow_up_sent', function: 'check_stock', requestId: 'rq_1', deferred: 'call-rq_1' }));
    log.feed(line({ event: 'follow_up_sent' }));
    expect(log.lines()).toEqual([
      expect.objectContaining({ kind: 'deferred', requestId: 'rq_1', event: 'call_deferred' }),
      expect.objectContaining({ kind: 'deferred', requestId: 'rq_1', event: 'follow_up_sent' }),
    ]);
  });

  it("reads an MCP task's steps apart from a deferred call's, so the console awaits no follow-up for it", () => {
    const log = createWorkerLog();
    const line = (fields: Record<string, unknown>) => `${JSON.stringify({ level: 'info', ...fields })}\n`;
    log.feed(line({ event: 'call_as_task', function: 'check_stock', requestId: 'rq_2', answerWithinMs: 2500 }));
    log.feed(line({ event: 'task_failed', function: 'check_stock', requestId: 'rq_2', deferred: 'task-0a1b' }));
    expect(log.lines()).toEqual([
      expect.objectContaining({ kind: 'deferred', requestId: 'rq_2', event: 'call_as_task' }),
      expect.objectContaining({ kind: 'deferred', requestId: 'rq_2', event: 'task_failed' }),
    ]);
  });

  it("reads a repeat of a deferred call as that call's step, so the console awaits no second follow-up", () => {
    const log = createWorkerLog();
    const line = (fields: Record<string, unknown>) => `${JSON.stringify({ level: 'info', ...fields })}\n`;
    log.feed(
      line({ event: 'call_deferred_repeat', function: 'check_stock', requestId: 'rq_3', deferred: 'call-rq_1' }),
    );
    expect(log.lines()).toEqual([
      expect.objectContaining({ kind: 'deferred', requestId: 'rq_3', event: 'call_deferred_repeat' }),
    ]);
  });

  it('ignores what is not a line of the Worker’s, and keeps only the newest lines', () => {
    const log = createWorkerLog(2);
    log.feed('{"level":"info","event":"invocation"\nnot json {"level": oops\n');
    expect(log.lines()).toEqual([]);
    log.feed(`${invocation('rq_1')}\n${invocation('rq_2')}\n${invocation('rq_3')}\n`);
    expect(log.lines().map((line) => (line.kind === 'invocation' ? line.requestId : ''))).toEqual(['rq_2', 'rq_3']);
  });
});
