// Benchmark entry: the project's own registry and Worker (src/) serving BENCH_FUNCTIONS generated
// functions. Built by scripts/bench with `--define BENCH_FUNCTIONS:<n>`; never part of worker.ts.
import { z } from 'zod';
import type { Env } from '../src/env.ts';
import { createWorker } from '../src/worker.ts';
import { benchFunctions } from './benchFunctions.ts';

// Replaced at build time; the typeof guards keep an unbuilt import working.
declare const BENCH_FUNCTIONS: number;
declare const BENCH_JITLESS: boolean;

if (typeof BENCH_JITLESS === 'boolean' && BENCH_JITLESS) z.config({ jitless: true });

const functions = benchFunctions(typeof BENCH_FUNCTIONS === 'number' ? BENCH_FUNCTIONS : 1);

export default createWorker({ functions }) satisfies ExportedHandler<Env>;
