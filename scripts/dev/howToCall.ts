// The lines `npm run dev` prints once everything runs: how to call a function, and where the console is.
import { functionUrl } from 'agent-functions/worker';

type Schema = {
  properties?: Record<string, { type?: string; enum?: unknown[]; minimum?: number }>;
  required?: string[];
};

/** A value for each required parameter, from its JSON Schema, for the example call. */
export const exampleArgs = (schema: unknown): Record<string, unknown> => {
  const { properties = {}, required = [] } = (schema ?? {}) as Schema;
  return Object.fromEntries(
    required.map((name) => {
      const p = properties[name] ?? {};
      if (p.enum?.length) return [name, p.enum[0]];
      if (p.type === 'number' || p.type === 'integer') return [name, p.minimum ?? 1];
      if (p.type === 'boolean') return [name, true];
      return [name, 'example'];
    }),
  );
};

/** Whether exampleArgs certainly fit: no required parameter is free text (a placeholder there may be refused). */
const takesExampleArgs = (schema: unknown): boolean => {
  const { properties = {}, required = [] } = (schema ?? {}) as Schema;
  return required.every((name) => {
    const p = properties[name] ?? {};
    return Boolean(p.enum?.length) || p.type === 'number' || p.type === 'integer' || p.type === 'boolean';
  });
};

/** A function as the manifest describes it, with what the choice of the example call reads. */
export interface ServedForCall {
  name: string;
  jsonSchema?: unknown;
  annotations?: { readOnlyHint?: boolean };
  secrets?: string[];
  vars?: string[];
}

/**
 * The function whose call dev shows: one that changes nothing, needs no secret or var and answers
 * the example arguments, preferably one that takes some (so the line shows how to pass them);
 * else the first.
 * @example exampleCallOf(served)?.name // 'lookup_warranty'
 */
export const exampleCallOf = (functions: readonly ServedForCall[]): ServedForCall | undefined => {
  const ready = (fn: ServedForCall) =>
    fn.annotations?.readOnlyHint === true && !fn.secrets?.length && !fn.vars?.length && takesExampleArgs(fn.jsonSchema);
  const takesArgs = (fn: ServedForCall) => Object.keys(exampleArgs(fn.jsonSchema)).length > 0;
  return functions.find((fn) => ready(fn) && takesArgs(fn)) ?? functions.find(ready) ?? functions[0];
};

export interface HowToCallOptions {
  /** The Worker's origin, e.g. http://127.0.0.1:8787. */
  origin: string;
  /** The Worker's FUNCTIONS_SECRET, or undefined when it serves without a key. */
  secret: string | undefined;
  consoleUrl: string;
  functions: ServedForCall[];
  /** The local platform's account names (platform.accounts.json), the first first. */
  accounts: readonly string[];
}

/** The platform call's `--account` words: none for one account (the first is the default), else each name. */
const accountWords = (accounts: readonly string[]): { flag: string; remark: string[] } => {
  const [first, ...others] = accounts;
  if (first === undefined || others.length === 0) return { flag: '', remark: [] };
  return {
    flag: ` --account ${first}`,
    remark: [`[dev] --account picks the client: ${accounts.join(', ')}.`],
  };
};

/**
 * The ready lines; lines starting with "[" are dev's own remarks, the others are to copy.
 * @example for (const line of await howToCall(options)) console.log(line)
 */
export const howToCall = async (options: HowToCallOptions): Promise<string[]> => {
  const lines = [
    `console: ${options.consoleUrl}`,
    `mcp: ${options.origin}/mcp (open locally when worker.ts enables MCP, README "MCP")`,
  ];
  const first = exampleCallOf(options.functions);
  if (!first) return ['[dev] functions/ serves nothing: add a file there (npm run new -- <name>).', ...lines];
  const args = JSON.stringify(exampleArgs(first.jsonSchema));
  const path = { name: first.name, path: `/functions/${first.name}` };
  const url = options.secret
    ? await functionUrl(options.origin, path, options.secret)
    : `${options.origin}${path.path}`;
  const { flag, remark } = accountWords(options.accounts);
  return [
    '[dev] ready. Call a function as the agent would (the local platform calls its registered url):',
    `  npm run platform -- call ${first.name} '${args}'${flag}`,
    ...remark,
    `[dev] or call the Worker directly${options.secret ? ' (with the key, as FUNCTIONS_SECRET is set in .dev.vars)' : ' (no key needed: no FUNCTIONS_SECRET in .dev.vars)'}:`,
    `  curl -s -X POST '${url}' -H 'content-type: application/json' -d '${args}'`,
    ...lines,
    '[dev] edit functions/ or events/ and it re-syncs; Ctrl-C stops everything.',
  ];
};
