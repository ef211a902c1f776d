// The isolate's minute buckets (src/metrics/buckets.ts): each record lands in the bucket of its
// minute, account, function and kind, whichever bucket the one before it went to, and a take
// leaves the buffer empty.
import { describe, expect, it } from 'vitest';
import { createBucketBuffer } from '../../metrics/buckets.ts';
import { failedOf, recordOf } from './helpers.ts';

const MINUTE = 60_000;
const at = 1_800_000 * MINUTE;

describe('the bucket buffer', () => {
  it('adds interleaved functions, kinds, accounts and minutes each to its own bucket', () => {
    const buffer = createBucketBuffer();
    const sequence = [
      [recordOf(), at],
      [recordOf({ function: 'quote_plan' }), at],
      [recordOf(), at + 10],
      [failedOf('timeout', { kind: 'deferred', transport: 'workflow' }), at + 20],
      [recordOf({ account: 'client-b' }), at + 30],
      [recordOf(), at + MINUTE],
      [recordOf(), at + 40],
      [recordOf({ account: null }), at],
    ] as const;
    for (const [record, now] of sequence) buffer.add(record, now);
    const taken = buffer.take();
    const summary = taken.map((b) => [b.minute - at / MINUTE, b.account, b.function, b.kind, b.calls, b.errors]);
    expect(summary).toEqual([
      [0, 'client-a', 'track_parcel', 'call', 3, 0],
      [0, 'client-a', 'quote_plan', 'call', 1, 0],
      [0, 'client-a', 'track_parcel', 'deferred', 1, 1],
      [0, 'client-b', 'track_parcel', 'call', 1, 0],
      [1, 'client-a', 'track_parcel', 'call', 1, 0],
    ]);
    expect(taken[2]).toMatchObject({ timeouts: 1, deferredFailures: 1, codes: { timeout: 1 } });
  });

  it('starts empty after a take, the last bucket forgotten with the rest', () => {
    const buffer = createBucketBuffer();
    buffer.add(recordOf(), at);
    expect(buffer.take()).toHaveLength(1);
    expect(buffer.take()).toEqual([]);
    buffer.add(recordOf(), at);
    expect(buffer.take()).toEqual([expect.objectContaining({ calls: 1 })]);
  });
});
