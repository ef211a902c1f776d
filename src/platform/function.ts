// What the platform sees of one function: its name rule, its parameter types and its registration
// record. The Worker's manifest, sync, the client and the emulator all derive from this module.
import type { PARAMETER_TYPES } from './contract.ts';

/** The platform's type names for the parameter map (CONTRACT section 5, assumption A). */
export type ParameterType = (typeof PARAMETER_TYPES)[number];
