// The webhook step of one account's sync on its own (scripts/sync/account.ts): when the
// run touches the webhook, when its report is kept, and the step itself against the emulator.
import { describe, expect, it } from 'vitest';
import { type RunContext, syncWebhook, webhookInScope, webhookReported } from '../../sync/account.ts';
import { accountApi } from '../../sync/accountApi.ts';
import { parseSyncArgs } from '../../sync/args.ts';
import { plain } from '../../sync/paint.ts';
import { createProgress } from '../../sync/progress.ts';
import { emptyReport } from '../../sync/report.ts';
import { capture, emulatorPerTest, keyOf, ORIGIN, SECRET } from './helpers.ts';

const start = emulatorPerTest();

/** A run's context as runSync builds it, from `argv` and the event types. */
const contextOf = (argv: string[], types: string[]): RunContext => {
  const args = parseSyncArgs(argv);
  return {
    args,
    stderr: capture().stream,
    createApi: undefined,
    maxRounds: undefined,
    roundDelayMs: 5,
    paint: plain,
    progress: createProgress(capture().stream, 1, true),
    served: [],
    names: new Set(),
    origin: ORIGIN,
    secret: SECRET,
    dryRun: args.dryRun || args.status,
    scope: args.only ? new Set(args.only) : undefined,
    types,
  };
};

describe('whether a run touches the events webhook', () => {
  it('does with event types to subscribe to', () => {
    expect(webhookInScope(true, false, 2, false)).toBe(true);
  });
  it('does without events only under --prune (to remove ours)', () => {
    expect(webhookInScope(true, false, 0, false)).toBe(false);
    expect(webhookInScope(true, false, 0, true)).toBe(true);
  });
  it('never under --only, which names functions, nor without a webhooks API', () => {
    expect(webhookInScope(true, true, 2, true)).toBe(false);
    expect(webhookInScope(false, false, 2, true)).toBe(false);
  });
});

describe('whether the webhook step is reported', () => {
  const report = emptyReport('acme (events webhook)', 'https://api.example', 'in-sync');
  it('is with events, or with an error', () => {
    expect(webhookReported(report, 1)).toBe(true);
    expect(webhookReported({ ...report, error: { kind: 'error', message: 'down' } }, 0)).toBe(true);
  });
  it('is not when --prune without events found nothing of ours', () => {
    expect(webhookReported(report, 0)).toBe(false);
    expect(
      webhookReported(
        {
          ...report,
          plan: {
            entries: [],
            counts: { create: 0, update: 0, delete: 0, unchanged: 0, orphan: 0, conflict: 0 },
            foreign: 0,
          },
        },
        0,
      ),
    ).toBe(false);
  });
});

describe('the webhook step', () => {
  it('creates the webhook at the account events path, then plans nothing', async () => {
    const emulator = await start({});
    const account = {
      name: 'business',
      eventsPath: '/events',
      urlAccount: undefined,
      baseUrl: emulator.url,
      apiKey: keyOf(emulator, 'business'),
      keyPlacement: undefined,
      functions: undefined,
      problems: [],
    };
    const { webhooks } = accountApi(account);
    if (!webhooks) throw new Error('no webhooks client');
    const printed: string[] = [];
    const run = contextOf([], ['message.received']);
    const first = await syncWebhook(
      run,
      account,
      webhooks,
      () => {},
      (text) => printed.push(text),
    );
    expect(first.status).toBe('synced');
    expect(printed.join('\n')).toContain('events webhook');
    const hooks = [...(emulator.state.accounts.find((a) => a.plan === 'business')?.webhooks.values() ?? [])];
    expect(hooks.map((hook) => [hook.url, [...hook.events]])).toEqual([[`${ORIGIN}/events`, ['message.received']]]);
    const second = await syncWebhook(
      run,
      account,
      webhooks,
      () => {},
      () => {},
    );
    expect(second.status).toBe('in-sync');
    expect(second.applied).toEqual([]);
  });
});
