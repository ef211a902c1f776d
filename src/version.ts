// A function's description version (docs/observability.md): a short hash of what sync registers
// for it (its name, description and parameter map; not its url, which differs per account and
// key). The Worker stamps it on every record of the function; sync and `npm run stats -- --by
// version` compute the same from the manifest. Synchronous (FNV-1a, not SHA-256): the registry
// computes it once per function per isolate as it translates the definition, so no call ever
// waits for it, and nothing here needs to be secret or collision-proof across functions.

/** What the version covers: the registered fields of a function, as the manifest and sync hold them. */
export interface RegisteredDescription {
  name: string;
  description: string;
  parameters: Readonly<Record<string, string>>;
}

/**
 * The 8-hex-digit version of a function's registered description; the parameter map's order does
 * not count.
 * @example descriptionVersion({ name: 'quote_plan', description: 'Quotes a plan.', parameters: { plan: 'string' } }) // '1f0c9a3e'
 */
export const descriptionVersion = ({ name, description, parameters }: RegisteredDescription): string => {
  const text = JSON.stringify([
    name,
    description,
    Object.keys(parameters)
      .sort()
      .map((key) => [key, parameters[key]]),
  ]);
  // FNV-1a, 32 bits, over the UTF-16 code units (the same in Node and workerd).
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
};
