// One function with the scaffold's placeholder description never stops dev syncing the others.
import { describe, expect, it } from 'vitest';
import { leaveOutUnwritten } from '../../dev/drafts.ts';
import type { ServedFunction } from '../../project/manifest.ts';
import { PLACEHOLDER_DESCRIPTION } from '../../project/templates.ts';
import { runSync } from '../../sync/run.ts';
import { capture } from '../capture.ts';
import { emulatorPerTest, keyOf, ORIGIN, SECRET } from '../sync/helpers.ts';

const fn = (name: string, description: string): ServedFunction =>
  ({ name, description, parameters: {}, path: `/functions/${name}` }) as unknown as ServedFunction;

describe("dev's sync with one unwritten function", () => {
  const start = emulatorPerTest();

  it('syncs the others and names the one it left out', async () => {
    const platform = await start();
    const served = [
      fn('price_plan', 'Quotes the price of a plan. Call it when the customer asks what a plan costs.'),
      fn('tell_time', PLACEHOLDER_DESCRIPTION),
    ];
    const { synced, note } = leaveOutUnwritten(served);
    expect(note).toContain('functions/tell_time.ts');
    expect(note).not.toContain('price_plan');
    const stdout = capture();
    const stderr = capture();
    // As dev runs it (scripts/dev/register.ts, from syncLoop.ts): the local platform's account, no lint, the manifest given.
    const run = await runSync(['--prune'], {
      env: {
        PLATFORM_BASE_URL: platform.url,
        PLATFORM_API_KEY: keyOf(platform, 'business'),
        FUNCTIONS_BASE_URL: ORIGIN,
        FUNCTIONS_SECRET: SECRET,
      },
      stdout: stdout.stream,
      stderr: stderr.stream,
      readManifest: async () => synced,
      fetchWorker: false,
      lint: false,
      eventTypes: [],
      roundDelayMs: 5,
    });
    expect(stderr.text()).not.toContain('nothing was synced');
    expect(run.exitCode).toBe(0);
    expect(stdout.text()).toMatch(/\+ create +price_plan/);
    expect(stdout.text()).not.toContain('tell_time');
  });

  it('syncs everything and says nothing when every description is written', () => {
    const served = [fn('price_plan', 'Quotes the price of a plan. Call it when the customer asks what a plan costs.')];
    expect(leaveOutUnwritten(served)).toEqual({ synced: served });
  });
});
