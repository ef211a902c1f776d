// Sync registers the events webhook: one per account, at FUNCTIONS_BASE_URL/events (the first
// account) or /events/<account> (the others), subscribed to the files in events/; idempotent,
// updated when the set changes, pruned only when ours, and never created twice under faults
// (docs/platform-contract.md §7).
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../platform/emulator.ts';
import { keyOf, ORIGIN, platform, sync, writesIn } from './helpers.ts';

const TYPES = ['appointment.booked', 'message.received'];

const webhooksOf = (emulator: RunningEmulator, plan = 'business') =>
  [...(emulator.state.accounts.find((a) => a.plan === plan)?.webhooks.values() ?? [])].map(({ url, events }) => ({
    url,
    events: [...events].sort(),
  }));

const run = (emulator: RunningEmulator, args: string[] = [], eventTypes = TYPES) =>
  sync(emulator, [], args, { io: { eventTypes } });

let emulator: RunningEmulator;
afterEach(() => emulator?.close());

describe('sync and the events webhook', () => {
  it('creates one webhook at the events endpoint, subscribed to every event file, then writes nothing', async () => {
    emulator = await platform();
    const first = await run(emulator);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toContain('+ create     events webhook');
    expect(webhooksOf(emulator)).toEqual([{ url: `${ORIGIN}/events`, events: TYPES }]);
    const before = emulator.log().length;
    const second = await run(emulator);
    expect(second.exitCode).toBe(0);
    expect(writesIn(emulator, before)).toEqual([]);
  });

  it('updates the events when the set of files changes, with one write', async () => {
    emulator = await platform();
    await run(emulator);
    const before = emulator.log().length;
    const changed = await run(emulator, [], ['appointment.booked', 'contact.created']);
    expect(changed.exitCode).toBe(0);
    expect(changed.stdout).toContain('+ contact.created (event)');
    expect(changed.stdout).toContain('- message.received (event)');
    expect(writesIn(emulator, before).map((w) => w.method)).toEqual(['PATCH']);
    expect(webhooksOf(emulator)).toEqual([
      { url: `${ORIGIN}/events`, events: ['appointment.booked', 'contact.created'] },
    ]);
  });

  it('--status calls the webhook a webhook, not a function', async () => {
    emulator = await platform();
    await run(emulator);
    const status = await run(emulator, ['--status']);
    const block = status.stdout.slice(status.stdout.indexOf('(events webhook)'));
    expect(block).toContain('✓ matches  events webhook');
    expect(block).toContain('the events webhook matches');
    expect(block).not.toMatch(/functions? match/);
    await emulator.close();
    emulator = await platform();
    const missing = await run(emulator, ['--status']);
    expect(missing.stdout).toContain('✗ missing  events webhook');
    expect(missing.stdout).toContain('the events webhook is not registered');
  });

  it('writes nothing in a dry run', async () => {
    emulator = await platform();
    const dry = await run(emulator, ['--dry-run']);
    expect(dry.stdout).toContain('+ create     events webhook');
    expect(webhooksOf(emulator)).toEqual([]);
  });

  it('with --prune and no event files removes only its own webhook', async () => {
    emulator = await platform();
    await run(emulator);
    const account = emulator.accounts.find((a) => a.plan === 'business');
    const others = [`${ORIGIN}/other-team/hook`, 'https://crm.example.com/events'];
    for (const url of others) {
      await fetch(`${emulator.url}/v1/webhooks`, {
        method: 'POST',
        headers: { 'x-api-key': account?.apiKey ?? '', 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['message.received'] }),
      });
    }
    const kept = await run(emulator, [], []);
    expect(kept.exitCode).toBe(0);
    expect(webhooksOf(emulator)).toHaveLength(3);
    const pruned = await run(emulator, ['--prune'], []);
    expect(pruned.exitCode, pruned.stderr).toBe(0);
    expect(
      webhooksOf(emulator)
        .map((w) => w.url)
        .sort(),
    ).toEqual(others.sort());
  });

  describe('with several accounts', () => {
    const config = (names: string[]) => ({
      accounts: names.map((name) => ({
        name,
        apiKeyEnv: name === 'agency' ? 'AGENCY_API_KEY' : 'ACME_API_KEY',
        baseUrlEnv: 'PLATFORM_BASE_URL',
      })),
    });
    const runAccounts = (names: string[], args: string[] = [], eventTypes = TYPES) =>
      sync(emulator, [], args, {
        env: { AGENCY_API_KEY: keyOf(emulator, 'agency'), ACME_API_KEY: keyOf(emulator, 'business') },
        io: { eventTypes, config: config(names) },
      });

    it('registers one webhook per account, the first at /events and each other at /events/<name>, then writes nothing', async () => {
      emulator = await platform();
      const first = await runAccounts(['agency', 'client-acme']);
      expect(first.exitCode, first.stderr).toBe(0);
      expect(webhooksOf(emulator, 'agency')).toEqual([{ url: `${ORIGIN}/events`, events: TYPES }]);
      expect(webhooksOf(emulator, 'business')).toEqual([{ url: `${ORIGIN}/events/client-acme`, events: TYPES }]);
      const before = emulator.log().length;
      const second = await runAccounts(['agency', 'client-acme']);
      expect(second.exitCode).toBe(0);
      expect(writesIn(emulator, before)).toEqual([]);
    });

    it('moves a webhook whose account changed place with one update, never a second webhook', async () => {
      emulator = await platform();
      await runAccounts(['agency', 'client-acme']);
      const before = emulator.log().length;
      const moved = await runAccounts(['client-acme', 'agency']);
      expect(moved.exitCode, moved.stderr).toBe(0);
      expect(writesIn(emulator, before).map((w) => w.method)).toEqual(['PATCH', 'PATCH']);
      expect(webhooksOf(emulator, 'business')).toEqual([{ url: `${ORIGIN}/events`, events: TYPES }]);
      expect(webhooksOf(emulator, 'agency')).toEqual([{ url: `${ORIGIN}/events/agency`, events: TYPES }]);
    });

    it('with --prune and no event files removes each account webhook, whichever path it has', async () => {
      emulator = await platform();
      await runAccounts(['agency', 'client-acme']);
      const pruned = await runAccounts(['agency', 'client-acme'], ['--prune'], []);
      expect(pruned.exitCode, pruned.stderr).toBe(0);
      expect([...webhooksOf(emulator, 'agency'), ...webhooksOf(emulator, 'business')]).toEqual([]);
    });

    it('adopts the webhooks of a previous origin (--adopt) by moving them', async () => {
      emulator = await platform();
      await runAccounts(['agency', 'client-acme']);
      const moved = await sync(emulator, [], ['--adopt', ORIGIN], {
        env: {
          AGENCY_API_KEY: keyOf(emulator, 'agency'),
          ACME_API_KEY: keyOf(emulator, 'business'),
          FUNCTIONS_BASE_URL: 'https://new.example.dev',
        },
        io: { eventTypes: TYPES, config: config(['agency', 'client-acme']) },
      });
      expect(moved.exitCode, moved.stderr).toBe(0);
      expect(webhooksOf(emulator, 'agency')).toEqual([{ url: 'https://new.example.dev/events', events: TYPES }]);
      expect(webhooksOf(emulator, 'business')).toEqual([
        { url: 'https://new.example.dev/events/client-acme', events: TYPES },
      ]);
    });
  });

  it.each([
    ['a create whose answer is lost (connection dropped)', { loseCreateAnswer: { count: 1, mode: 'drop' as const } }],
    ['a create whose answer is lost (502)', { loseCreateAnswer: { count: 1, mode: '502' as const } }],
    ['5xx on the first lists', { serverErrors: { first: 3, status: 503, methods: ['GET'] } }],
    ['a 429 storm', { rateLimitStorm: { first: 4, retryAfter: '0' } }],
    ['dropped connections', { dropConnections: { first: 2 } }],
  ])('ends with exactly one webhook after %s', async (_, faults) => {
    emulator = await platform({ faults });
    const result = await run(emulator);
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(webhooksOf(emulator)).toEqual([{ url: `${ORIGIN}/events`, events: TYPES }]);
    expect((await run(emulator)).exitCode).toBe(0);
    expect(webhooksOf(emulator)).toHaveLength(1);
  });
});
