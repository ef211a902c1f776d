import type { FunctionRecord, RemoteFunction } from 'agent-functions/platform';
import { describe, expect, it } from 'vitest';
import { driftLines } from '../../dev/drift.ts';

const ORIGIN = 'http://127.0.0.1:8787';
const record = (name: string, description = 'Says hello. Call it when greeted.'): FunctionRecord => ({
  name,
  description,
  parameters: { question: 'string' },
  url: `${ORIGIN}/functions/${name}?key=k_${name}`,
});
const remote = (fn: FunctionRecord, id = `fn_${fn.name}`): RemoteFunction => ({ ...fn, id });

describe("whether the local platform holds what dev's Worker serves", () => {
  it('says nothing when both hold the same', () => {
    expect(driftLines([record('greet')], [remote(record('greet'))], ORIGIN)).toEqual([]);
  });

  it('names each function that differs, is missing or is left over, with the fields that differ', () => {
    const desired = [record('greet'), record('lookup_warranty')];
    const held = [remote(record('greet', 'An older description.')), remote(record('gone_now'))];
    expect(driftLines(desired, held, ORIGIN)).toEqual([
      'the local platform still holds gone_now, which the Worker no longer serves',
      "the local platform's greet differs from what the Worker serves (description)",
      'the local platform lacks lookup_warranty, which the Worker serves',
    ]);
  });

  it('leaves alone what another origin registered', () => {
    const theirs = { ...record('greet'), url: 'https://elsewhere.example/functions/greet' };
    expect(driftLines([], [remote(theirs)], ORIGIN)).toEqual([]);
  });
});
