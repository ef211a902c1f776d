import { describe, expect, it } from 'vitest';
import { BENCH_V8_FLAGS, useBenchV8Flags, V8_FLAGS_VARIABLE } from '../src/v8Flags.ts';

describe('the V8 flags of the benchmark workerd processes', () => {
  it('fixes the young generation for every workerd Miniflare starts, and says so', () => {
    const env: NodeJS.ProcessEnv = {};
    expect(useBenchV8Flags(env)).toBe('--min-semi-space-size=16');
    expect(env[V8_FLAGS_VARIABLE]).toBe(BENCH_V8_FLAGS);
  });

  it('keeps flags the person running it chose, and an empty value runs V8 as it comes', () => {
    const own: NodeJS.ProcessEnv = { [V8_FLAGS_VARIABLE]: '--max-semi-space-size=8' };
    expect(useBenchV8Flags(own)).toBe('--max-semi-space-size=8');
    expect(own[V8_FLAGS_VARIABLE]).toBe('--max-semi-space-size=8');
    const none: NodeJS.ProcessEnv = { [V8_FLAGS_VARIABLE]: '' };
    expect(useBenchV8Flags(none)).toBe('');
  });
});
