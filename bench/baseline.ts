// Benchmark entry: the hand-written baseline (bench/baselineWorker.ts) with validation by hand,
// checks equal to bench/quoteSchema.ts and no zod at all.
import { type BaselineEnv, createBaselineWorker, validateByHand } from './baselineWorker.ts';

export default createBaselineWorker(validateByHand) satisfies ExportedHandler<BaselineEnv>;
