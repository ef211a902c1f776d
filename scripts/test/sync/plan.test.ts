import type { FunctionRecord, RemoteFunction } from 'agent-functions/platform';
import { describe, expect, it } from 'vitest';
import { belongsToAccount, hasChanges, isOwnedUrl, planSync, urlAccount } from '../../sync/plan.ts';

const ORIGIN = 'https://fns.example.dev';

const desired = (name: string, overrides: Partial<FunctionRecord> = {}): FunctionRecord => ({
  name,
  description: `Does ${name}.`,
  parameters: { city: 'string' },
  url: `${ORIGIN}/functions/${name}?key=k-${name}`,
  ...overrides,
});

const remote = (id: string, fn: FunctionRecord, overrides: Partial<RemoteFunction> = {}): RemoteFunction => ({
  id,
  ...fn,
  ...overrides,
});

const actions = (plan: ReturnType<typeof planSync>) => plan.entries.map((e) => `${e.action} ${e.name}`);

describe('planSync', () => {
  it('creates every function when the account holds none', () => {
    const plan = planSync({ desired: [desired('b'), desired('a')], remote: [], origin: ORIGIN, prune: false });
    expect(actions(plan)).toEqual(['create a', 'create b']);
    expect(plan.counts.create).toBe(2);
    expect(hasChanges(plan)).toBe(true);
  });

  it('leaves identical functions unchanged and writes nothing', () => {
    const a = desired('a');
    const plan = planSync({ desired: [a], remote: [remote('1', a)], origin: ORIGIN, prune: false });
    expect(actions(plan)).toEqual(['unchanged a']);
    expect(hasChanges(plan)).toBe(false);
  });

  it('updates only the fields that differ', () => {
    const a = desired('a');
    const plan = planSync({
      desired: [a],
      remote: [remote('1', a, { description: 'Old text.', parameters: { city: 'number' } })],
      origin: ORIGIN,
      prune: false,
    });
    const [entry] = plan.entries;
    expect(entry?.action).toBe('update');
    expect(entry?.action === 'update' && entry.changes.map((c) => c.field)).toEqual(['description', 'parameters']);
  });

  it('ignores the order of parameter keys', () => {
    const a = desired('a', { parameters: { city: 'string', day: 'string' } });
    const plan = planSync({
      desired: [a],
      remote: [remote('1', a, { parameters: { day: 'string', city: 'string' } })],
      origin: ORIGIN,
      prune: false,
    });
    expect(actions(plan)).toEqual(['unchanged a']);
  });

  it('treats a new key in the url as an update of that function', () => {
    const a = desired('a');
    const plan = planSync({
      desired: [a],
      remote: [remote('1', a, { url: `${ORIGIN}/functions/a?key=old` })],
      origin: ORIGIN,
      prune: false,
    });
    expect(plan.entries[0]?.action === 'update' && plan.entries[0].changes.map((c) => c.field)).toEqual(['url']);
  });

  it('keeps a function of ours that left functions/ unless pruning, then deletes it', () => {
    const gone = remote('9', desired('gone'));
    expect(actions(planSync({ desired: [], remote: [gone], origin: ORIGIN, prune: false }))).toEqual(['orphan gone']);
    const pruned = planSync({ desired: [], remote: [gone], origin: ORIGIN, prune: true });
    expect(pruned.entries).toEqual([{ action: 'delete', name: 'gone', id: '9', reason: 'removed' }]);
  });

  it('never deletes a function registered by someone else, even when pruning', () => {
    const theirs = remote('7', desired('theirs'), { url: 'https://crm.example.com/hook' });
    const plan = planSync({ desired: [], remote: [theirs], origin: ORIGIN, prune: true });
    expect(plan.entries).toEqual([]);
    expect(plan.foreign).toBe(1);
  });

  it('reports a name taken by someone else as a conflict and never writes it', () => {
    const a = desired('a');
    const plan = planSync({
      desired: [a],
      remote: [remote('7', a, { url: 'https://other.example/a' })],
      origin: ORIGIN,
      prune: true,
    });
    expect(actions(plan)).toEqual(['conflict a']);
    expect(hasChanges(plan)).toBe(false);
  });

  it('does not take a longer host that merely starts with the origin for ours', () => {
    expect(isOwnedUrl(`${ORIGIN}/functions/a?key=1`, `${ORIGIN}/`)).toBe(true);
    expect(isOwnedUrl('https://fns.example.dev.evil.com/functions/a', ORIGIN)).toBe(false);
    expect(isOwnedUrl('https://fns.example.devious/functions/a', ORIGIN)).toBe(false);
  });

  it('owns only a function path under the origin: not another path there, nor one that climbs out', () => {
    expect(isOwnedUrl(`${ORIGIN}/functions/quote_plan`, ORIGIN)).toBe(true);
    expect(isOwnedUrl(`${ORIGIN}/other-team/webhook`, ORIGIN)).toBe(false);
    expect(isOwnedUrl(ORIGIN, ORIGIN)).toBe(false);
    expect(isOwnedUrl(`${ORIGIN}/functions/`, ORIGIN)).toBe(false);
    expect(isOwnedUrl(`${ORIGIN}/functions/../other-team/webhook`, ORIGIN)).toBe(false);
    expect(isOwnedUrl(`${ORIGIN}/functions/a/b?key=1`, ORIGIN)).toBe(false);
    expect(isOwnedUrl(`${ORIGIN}/functionsx/a`, ORIGIN)).toBe(false);
  });

  it('deletes extra records of ours under one name only when pruning, keeping the oldest', () => {
    const a = desired('a');
    const records = [remote('2', a), remote('1', a)];
    expect(actions(planSync({ desired: [a], remote: records, origin: ORIGIN, prune: false }))).toEqual(['unchanged a']);
    const plan = planSync({ desired: [a], remote: records, origin: ORIGIN, prune: true });
    expect(plan.entries).toEqual([
      { action: 'unchanged', name: 'a', id: '1' },
      { action: 'delete', name: 'a', id: '2', reason: 'duplicate' },
    ]);
  });

  it("upgrades an account's url that names no account, keeps its own, and never touches another account's", () => {
    const url = (name: string, account?: string) =>
      `${ORIGIN}/functions/${name}?${account ? `account=${account}&` : ''}key=k-${name}`;
    const wanted = [desired('a', { url: url('a', 'acme') }), desired('b', { url: url('b', 'acme') })];
    const plan = planSync({
      desired: wanted,
      remote: [
        remote('1', desired('a', { url: url('a') })),
        remote('2', desired('b', { url: url('b', 'agency') })),
        remote('3', desired('c', { url: url('c', 'agency') })),
        remote('4', desired('d', { url: url('d', 'acme') })),
      ],
      origin: ORIGIN,
      prune: true,
      account: 'acme',
    });
    expect(actions(plan)).toEqual(['update a', 'conflict b', 'delete d']);
    expect(plan.foreign).toBe(1);
    expect(urlAccount(url('a', 'acme'))).toBe('acme');
    expect(urlAccount(url('a'))).toBeUndefined();
    expect(belongsToAccount(url('a'), 'acme')).toBe(true);
    expect(belongsToAccount(url('a', 'agency'), 'acme')).toBe(false);
    expect(belongsToAccount(url('a', 'agency'), undefined)).toBe(false);
  });

  it('touches only the names in scope (--only)', () => {
    const plan = planSync({
      desired: [desired('a')],
      remote: [remote('8', desired('b')), remote('9', desired('c'))],
      origin: ORIGIN,
      prune: true,
      scope: new Set(['a', 'b']),
    });
    expect(actions(plan)).toEqual(['create a', 'delete b']);
  });
});
