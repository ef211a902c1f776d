import { describe, expect, it } from 'vitest';
import { measureIsolateCpuBothWays } from '../src/isolateCpu.ts';

const call = { url: 'https://bench.example/functions/quote', body: '{}', expectStatus: 200 };

describe('measureIsolateCpuBothWays', () => {
  it('measures in two processes, the Workers listed both ways, the batches shared, batch k of each still side by side', async () => {
    const processes: { order: string[]; batches: number }[] = [];
    const measure = async (bundles: Record<string, string>, _call: typeof call, batches: number) => {
      const order = Object.keys(bundles);
      processes.push({ order, batches });
      // Each process reads its own offset: the first listed Worker 10% slower in the first, the
      // second listed in the second.
      const n = processes.length;
      return Object.fromEntries(
        order.map((name, position) => [
          name,
          Array.from({ length: batches }, (_, k) => 100 * (position === 0 ? 1.1 : 1) + n * 1000 + k),
        ]),
      );
    };
    const cpu = await measureIsolateCpuBothWays({ off: '/off.js', on: '/on.js' }, call, 5, 200, {}, measure);
    expect(processes).toEqual([
      { order: ['off', 'on'], batches: 3 },
      { order: ['on', 'off'], batches: 3 },
    ]);
    expect(cpu.off).toEqual([1110, 1111, 1112, 2100, 2101, 2102]);
    expect(cpu.on).toEqual([1100, 1101, 1102, 2110, 2111, 2112]);
  });
});
