// What each account should hold: the Worker's manifest plus the url with each function's key.
import { functionUrl } from '../../src/url.ts';
import type { ServedFunction } from './manifest.ts';

/** One function as it should be registered on the platform (CONTRACT section 5). */
export interface DesiredFunction {
  name: string;
  description: string;
  parameters: Record<string, string>;
  url: string;
}

/**
 * The registration of every served function, its url built from `origin` and the secret.
 * @example await desiredFunctions(served, 'https://fns.example.dev', secret)
 */
export const desiredFunctions = (
  served: ServedFunction[],
  origin: string,
  secret: string,
): Promise<DesiredFunction[]> =>
  Promise.all(
    served.map(async (fn) => ({
      name: fn.name,
      description: fn.description,
      parameters: fn.parameters,
      url: await functionUrl(origin, fn, secret),
    })),
  );

/** Keeps the functions named in `names` (all when `names` is undefined). */
export const selectFunctions = (desired: DesiredFunction[], names: readonly string[] | undefined): DesiredFunction[] =>
  names ? desired.filter((fn) => names.includes(fn.name)) : desired;
