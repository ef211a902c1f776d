// The functions every project benchmark entry serves: BENCH_FUNCTIONS generated definitions.
import { benchFunctions } from './benchFunctions.ts';

// Replaced at build time (`--define BENCH_FUNCTIONS:<n>`); the typeof guard keeps an unbuilt import working.
declare const BENCH_FUNCTIONS: number;

export const functions = benchFunctions(typeof BENCH_FUNCTIONS === 'number' ? BENCH_FUNCTIONS : 1);
