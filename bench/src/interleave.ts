// Side-by-side load runs, the one way every socket part runs its cases: a warm-up of each case,
// then each round of the settings cut into slices, every case run once per slice, the order
// flipped every slice. A ratio row pairs slice k of one case with slice k of another.
import { type LoadResult, type LoadTarget, loadTest } from './loadTest.ts';

/**
 * Each round's run of a case is cut into this many slices (6 rounds of 2 s: 24 slices of 0.5 s).
 * A pair's two slices then run within about a second of each other instead of up to 18 s: this
 * machine's speed moves within seconds, and at the same load time the intervals of part 1's ratio
 * rows came out two to four times narrower (stretch 0.94x-1.04x against 0.77x-1.14x; invalid
 * 1.01x-1.14x against 0.89x-1.58x).
 */
export const SLICES_PER_ROUND = 4;

/** How long and how hard each case is driven (the bench's settings). */
export interface LoadSettings {
  rounds: number;
  seconds: number;
  connections: number;
  warmupSeconds: number;
}

/**
 * Runs `names` side by side: `targetOf(name, slice)` gives what slice `slice` sends (0: the
 * warm-up; a write that must be new each time reads the slice). A wrong answer stops the part,
 * named `part`; progress is reported once a round. Returns each case's result per slice.
 * @example const slices = await interleavedLoad(['plain', 'write'], (name) => cases[name], settings, 'conversations')
 */
export const interleavedLoad = async <Name extends string>(
  names: readonly Name[],
  targetOf: (name: Name, slice: number) => LoadTarget | Promise<LoadTarget>,
  settings: LoadSettings,
  part: string,
  progress: (line: string) => void = () => {},
): Promise<Record<Name, LoadResult[]>> => {
  const results = Object.fromEntries(names.map((name) => [name, [] as LoadResult[]])) as Record<Name, LoadResult[]>;
  const connections = settings.connections;
  for (const name of names) await loadTest(await targetOf(name, 0), { connections, seconds: settings.warmupSeconds });
  const seconds = settings.seconds / SLICES_PER_ROUND;
  for (let slice = 1; slice <= settings.rounds * SLICES_PER_ROUND; slice++) {
    for (const name of slice % 2 === 1 ? names : [...names].reverse()) {
      const result = await loadTest(await targetOf(name, slice), { connections, seconds });
      if (result.unexpected > 0) {
        throw new Error(
          `${part} ${name}: ${result.unexpected} of ${result.responses} answers had the wrong status or failed`,
        );
      }
      results[name].push(result);
    }
    if (slice % SLICES_PER_ROUND === 0) progress(`${part} round ${slice / SLICES_PER_ROUND}/${settings.rounds} done`);
  }
  return results;
};
