// Dev's sync to the local platform takes every function it can: one still holding the scaffold's
// placeholder description (npm run new) is left out and named, and the others are synced, so one
// new file never stops the rest. (npm run sync, to a real platform, refuses the whole run instead:
// docs/sync-and-accounts.md.) A description the linter finds fault with is still registered, as a
// draft the console shows with its findings.

import type { ServedFunction } from '../project/manifest.ts';
import { PLACEHOLDER_DESCRIPTION } from '../project/templates.ts';

/** The functions dev syncs, and what it says of those it leaves out (undefined when none). */
export const leaveOutUnwritten = (served: ServedFunction[]): { synced: ServedFunction[]; note?: string } => {
  const unwritten = served.filter((fn) => fn.description.includes(PLACEHOLDER_DESCRIPTION));
  if (unwritten.length === 0) return { synced: served };
  const files = unwritten.map((fn) => `functions/${fn.name}.ts`).join(', ');
  return {
    synced: served.filter((fn) => !unwritten.includes(fn)),
    note: `left out of the local platform until its description is written (still the scaffold's placeholder): ${files}. The others are synced.`,
  };
};
