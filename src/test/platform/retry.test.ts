// The client's retry timing, as pure functions: Retry-After read as seconds or a date, and jittered
// exponential backoff under a cap (docs/platform-contract.md §5).
import { describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../platform/client/retry.ts';

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter, never past the cap', () => {
    const options = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, options, () => 0)).toBe(50);
    expect(backoffDelay(1, options, () => 0.999)).toBeLessThanOrEqual(100);
    expect(backoffDelay(3, options, () => 0)).toBe(200);
    expect(backoffDelay(10, options, () => 0.999)).toBeLessThanOrEqual(1000);
    expect(backoffDelay(10, options, () => 0)).toBe(500);
  });
});
