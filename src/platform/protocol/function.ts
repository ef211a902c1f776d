// What the platform sees of one function (docs/platform-contract.md §5): the name rule, the parameter types
// and the registration record. The Worker's manifest (src/schema/describe.ts), sync, the client and the
// emulator take their types from here, and their validation from schemas.ts, which builds on it.
// No zod here: the Worker checks names with FUNCTION_NAME without bundling the client's schemas.

/** Names the platform accepts for a custom function (A); a file in functions/ is named by it. */
export const FUNCTION_NAME: RegExp = /^[a-z][a-z0-9_]{0,63}$/;

/** The parameter type names of a custom function's flat map (A). */
export const PARAMETER_TYPES = ['string', 'number', 'boolean', 'array', 'object'] as const;

/** One type name of the flat parameter map. */
export type ParameterType = (typeof PARAMETER_TYPES)[number];

/** One function as the platform registers it: what sync sends and the emulator stores (POST /v1/custom-functions). */
export type FunctionRecord = {
  name: string;
  description: string;
  url: string;
  parameters: Record<string, ParameterType>;
};

/** A change to a registered function: any non-empty subset of the record (A). */
export type FunctionRecordUpdate = Partial<FunctionRecord>;

/** A registered function as listed, normalised; parameter types kept as the platform sent them. */
export interface RemoteFunction extends Omit<FunctionRecord, 'parameters'> {
  id: string;
  parameters: Record<string, string>;
}
