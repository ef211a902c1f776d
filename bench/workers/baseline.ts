// Benchmark entry: the hand-written baseline (bench/workers/baselineWorker.ts) with validation by hand,
// checks equal to bench/workers/quoteSchema.ts and no zod at all.
import { type BaselineEnv, createBaselineWorker, validateByHand } from './baselineWorker.ts';

export default createBaselineWorker(validateByHand) satisfies ExportedHandler<BaselineEnv>;
