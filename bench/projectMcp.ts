// Benchmark entry: bench/project.ts with MCP on (createWorker's `mcp` option), so the bench can
// report what MCP adds to the bundle and to start-up. Built like project.ts, with
// `--define BENCH_FUNCTIONS:<n>`; never part of worker.ts.
import type { Env } from '../src/env.ts';
import { createWorker } from '../src/worker.ts';
import { benchFunctions } from './benchFunctions.ts';

// Replaced at build time; the typeof guard keeps an unbuilt import working.
declare const BENCH_FUNCTIONS: number;

const functions = benchFunctions(typeof BENCH_FUNCTIONS === 'number' ? BENCH_FUNCTIONS : 1);

export default createWorker({ functions, mcp: () => import('../src/mcp/index.ts') }) satisfies ExportedHandler<Env>;
