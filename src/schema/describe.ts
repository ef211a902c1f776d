// Definition -> what the platform sees (docs/platform-contract.md §5): the name, the enriched description,
// the flat parameter map, the url path and the JSON Schema. The Worker's manifest, its 422
// messages and the sync command all read this one module, so they cannot disagree.
import type { z } from 'zod';
import { toJSONSchema } from 'zod/v4/core';
import type { AnyFunctionDefinition, Effect, FunctionAnnotations } from '../define.ts';
import { DEFAULT_TIMEOUT_MS, SETTING_NAME } from '../define.ts';
import { EXPLAINS } from '../env.ts';
import type { FunctionRecord } from '../platform/protocol/function.ts';
import type { CallPolicy } from '../policy.ts';
import { fieldText, type JsonSchema, type ParameterInfo, parameterInfo } from './parameters.ts';
import { isDateField } from './schemaDef.ts';

/** Why a definition with `approval` is refused by a Worker that cannot ask anyone (docs/functions.md "Approval"). */
export const APPROVAL_NEEDS_FEATURE: string = EXPLAINS
  ? `approval needs createWorker's conversations option wrapped by withApproval (agent-functions/approval): without it the function would run unapproved.`
  : `approval needs createWorker's conversations option.`;

/** The registry's policy for a Worker without the conversations feature: refuses only a definition that needs approval. */
export const withoutConversations = (definition: AnyFunctionDefinition): CallPolicy | undefined => {
  if (definition.approval) throw new Error(APPROVAL_NEEDS_FEATURE);
  return undefined;
};

/** Everything the platform and tools see of one function: its registration record but the url, and more. */
export interface FunctionManifest extends Omit<FunctionRecord, 'url'> {
  /** Path of the function on the Worker; the registered url adds the origin and the key. */
  path: string;
  jsonSchema: JsonSchema;
  timeoutMs: number;
  /** Secrets the handler needs on the Worker (sorted); deploy puts them, preflight checks them. */
  secrets: string[];
  /** Plain settings the handler needs (sorted). */
  vars: string[];
  /** The author's hints for MCP clients, when set. */
  annotations?: FunctionAnnotations;
  /** The effect the author declared, when set; like the annotations, read by the description linter, never registered. */
  effect?: Effect;
}

/**
 * Length a description should stay under, the generated parameter list included: the spec gives no
 * limit, but 1,024 characters is the cap of common function-calling APIs the platform's model may use.
 */
export const DESCRIPTION_LIMIT = 1024;

/** The scaffold's description (agent-functions new): tests fail and sync refuses while a function still has it. */
export const PLACEHOLDER_DESCRIPTION =
  'Replace this: say what the function does and when the agent should call it. The model reads it to decide.';

/** A definition the platform's flat parameter map cannot carry; the message names the field. */
export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
  }
}

/** The url path of a function on the Worker. */
export const functionPath = (name: string): string => `/functions/${name}`;

/** The JSON Schema of the arguments the model sends (input side: defaults make a field optional). */
export const inputJsonSchema = (name: string, schema: z.ZodType): JsonSchema => {
  try {
    return toJSONSchema(schema, {
      io: 'input',
      // Dates arrive as ISO strings; the runtime turns them into Date before validation.
      unrepresentable: ({ zodSchema }) =>
        zodSchema._zod.def.type === 'date' ? { type: 'string', format: 'date-time' } : undefined,
    }) as JsonSchema;
  } catch (error) {
    throw new DefinitionError(
      EXPLAINS
        ? `Function "${name}": its parameters cannot be described to the platform (${(error as Error).message}).`
        : `Function "${name}": its parameters cannot be described.`,
    );
  }
};

/** Each top-level parameter, in declaration order, with what the flat map cannot carry. */
export const describeParameters = (name: string, schema: z.ZodType): ParameterInfo[] =>
  parametersOf(name, inputJsonSchema(name, schema));

const parametersOf = (name: string, json: JsonSchema): ParameterInfo[] => {
  if (json.type !== 'object' || !json.properties) {
    throw new DefinitionError(
      EXPLAINS
        ? `Function "${name}": parameters must be z.object({...}) of named arguments, not ${json.type ?? 'a union or any'}.`
        : `Function "${name}": parameters must be z.object({...}).`,
    );
  }
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties).map(([key, property]) => {
    try {
      return parameterInfo(key, property, required.has(key), json);
    } catch (error) {
      throw new DefinitionError(`Function "${name}", parameter "${key}": ${(error as Error).message}`);
    }
  });
};

/** One line per parameter: `- seats (required, number): Whole number, from 1 to 500. How many users.` */
export const parameterLine = (info: ParameterInfo): string => `- ${fieldText(info)}`;

/** The author's description followed by the compact parameter list. */
export const enrichedDescription = (description: string, parameters: ParameterInfo[]): string => {
  const lines = parameters.map((info) => `\n${parameterLine(info)}`).join('');
  return `${description.trim()}\n\nParameters:${lines || ' none.'}`;
};

/** The manifest and the parameter details the runtime needs (which fields are dates), from one JSON Schema pass. */
export const translateFunction = (
  name: string,
  definition: AnyFunctionDefinition,
  /** The conversations feature's policy of a definition (src/conversations/check.ts), when it is on. */
  policyOf?: (definition: AnyFunctionDefinition, parameterNames: readonly string[]) => CallPolicy | undefined,
): { manifest: FunctionManifest; parameters: ParameterInfo[]; dates: Set<string>; policy?: CallPolicy } => {
  if (typeof definition.description !== 'string' || definition.description.trim().length < 10) {
    throw new DefinitionError(
      EXPLAINS
        ? `Function "${name}": description is missing or too short; say what it does and when the agent should call it.`
        : `Function "${name}": description is missing or too short.`,
    );
  }
  const settings = (field: 'secrets' | 'vars'): string[] => {
    const names = definition[field] ?? [];
    const bad = names.find((setting) => typeof setting !== 'string' || !SETTING_NAME.test(setting));
    if (!Array.isArray(names) || bad !== undefined) {
      throw new DefinitionError(
        EXPLAINS
          ? `Function "${name}": ${field} must list environment variable names such as "SHOP_API_KEY", not ${JSON.stringify(bad ?? names)}.`
          : `Function "${name}": ${field} must list environment variable names.`,
      );
    }
    return [...new Set(names)].sort();
  };
  const jsonSchema = inputJsonSchema(name, definition.parameters);
  const parameters = parametersOf(name, jsonSchema);
  const manifest: FunctionManifest = {
    name,
    description: enrichedDescription(definition.description, parameters),
    parameters: Object.fromEntries(parameters.map((info) => [info.name, info.type])),
    path: functionPath(name),
    jsonSchema,
    timeoutMs: definition.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    secrets: settings('secrets'),
    vars: settings('vars'),
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
    ...(definition.effect ? { effect: definition.effect } : {}),
  };
  let policy: CallPolicy | undefined;
  try {
    policy = policyOf?.(
      definition,
      parameters.map((info) => info.name),
    );
  } catch (error) {
    throw new DefinitionError(`Function "${name}": ${(error as Error).message}`);
  }
  const shape = definition.parameters.shape as Record<string, z.ZodType>;
  const dates = new Set(Object.keys(shape).filter((key) => isDateField(shape[key])));
  return { manifest, parameters, dates, ...(policy ? { policy } : {}) };
};

/**
 * Everything the platform sees of one function, derived from its definition.
 * @example describeFunction('lookup_warranty', lookupWarranty).parameters // { question: 'string' }
 */
export const describeFunction = (name: string, definition: AnyFunctionDefinition): FunctionManifest =>
  translateFunction(name, definition).manifest;
