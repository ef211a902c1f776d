// Reading a zod schema's definition under its wrappers: shared by argument parsing (src/args.ts)
// and translation (src/schema/describe.ts), so neither reaches into the other.
import type { z } from 'zod';

const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The parts of a zod definition the runtime reads. */
export interface SchemaDef {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
}

/** The definition under a schema's optional/nullable/default wrappers. */
export const unwrap = (schema: z.ZodType | undefined): SchemaDef | undefined => {
  let def = schema?._zod.def as SchemaDef | undefined;
  while (def && WRAPPERS.has(def.type) && def.innerType) def = def.innerType._zod.def as SchemaDef;
  return def;
};

/** Whether a top-level field is a z.date() under its optional/nullable/default wrappers. */
export const isDateField = (field: z.ZodType | undefined): boolean => unwrap(field)?.type === 'date';
