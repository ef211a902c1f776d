// Sync runs the description linter on what the model will read: errors stop it, warnings are shown.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ServedFunction } from '../../project/manifest.ts';
import { goodDefinition, registered } from '../lint/registered.ts';
import { emulatorPerTest, sync, writesIn } from './helpers.ts';

const start = emulatorPerTest();
const served = (...fns: ReturnType<typeof registered>[]): ServedFunction[] =>
  fns.map((fn) => ({
    ...fn,
    parameters: fn.parameters as ServedFunction['parameters'],
    jsonSchema: fn.jsonSchema as Record<string, unknown>,
    annotations: fn.annotations as Record<string, boolean>,
    path: `/functions/${fn.name}`,
  }));
const good = goodDefinition();
const lintOn = { io: { lint: undefined } };

describe('sync and the description linter', () => {
  it('refuses functions with an error in what the model reads, naming each, and writes nothing', async () => {
    const platform = await start();
    const vague = registered('lookup_order', { ...good, description: 'Looks up an order.' });
    const run = await sync(platform, served(vague), [], lintOn);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('error lookup_order [when-missing] No sentence says when the agent should call it.');
    expect(run.stderr).toContain('error(s) in what the model reads; nothing was synced. npm run lint:functions');
    expect(writesIn(platform)).toEqual([]);
  });

  it('syncs with warnings, showing each', async () => {
    const platform = await start();
    const warned = registered('lookup_order', {
      ...good,
      parameters: z.object({ note: z.string().describe('Anything the customer adds about the delivery') }),
    });
    const run = await sync(platform, served(warned), [], lintOn);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('warning lookup_order.note [param-unconstrained]');
    expect(writesIn(platform)).toHaveLength(1);
  });
});
