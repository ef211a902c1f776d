// The start-up probe on real workerd: a bundle whose evaluation does more work must cost more CPU
// than one that does nothing, and the samples line up per Worker (the benchmark asserts no speed).
import { describe, expect, it } from 'vitest';
import { measureStartup } from '../src/startupCpu.ts';
import { median } from '../src/stats.ts';

// About 20 ms of CPU on this machine's cores at top level, whatever the clock says (workerd
// freezes Date.now during a request, so a time-bounded loop would not end).
const BUSY = `let x = 0; for (let i = 0; i < 3e7; i++) x = (x + i * 7) % 1000003;
export default { fetch: () => new Response(String(x)) };`;
const IDLE = 'export default { fetch: () => new Response("ok") };';

describe('start-up CPU probe', () => {
  it('counts the CPU a bundle spends being evaluated, minus an empty control', async () => {
    const result = await measureStartup({ busy: BUSY, idle: IDLE }, 1, 3);
    expect(result.busy).toHaveLength(3);
    expect(result.idle).toHaveLength(3);
    // The busy loop dominates; the idle bundle costs about what the control does.
    expect(median(result.busy ?? [])).toBeGreaterThan(median(result.idle ?? []) + 5);
    expect(Math.abs(median(result.idle ?? []))).toBeLessThan(5);
  }, 60_000);
});
