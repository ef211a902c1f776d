// Under `npm run dev`, generate leaves a function file that does not build out of the registry and
// names it here, so the Worker can tell "a file being fixed" (503, try again) from "a name it never
// had" (404, as in production) (docs/platform-contract.md §4). Nothing is marked outside dev.

const UNBUILT = Symbol.for('agent-functions.unbuilt');

type Marked = { [UNBUILT]?: ReadonlySet<string> };

/**
 * `functions`, marked with the names of function files that exist but do not build (generated/functions.ts under dev).
 * @example export const functions = withUnbuilt({ lookup_warranty: $lookup_warranty }, ['track_parcel']);
 */
export const withUnbuilt = <T extends object>(functions: T, names: readonly string[]): T =>
  Object.defineProperty(functions, UNBUILT, { value: new Set(names), enumerable: false });

/** Whether `functions` marks `name` as a file that does not build. */
export const isUnbuilt = (functions: object, name: string): boolean =>
  (functions as Marked)[UNBUILT]?.has(name) ?? false;
