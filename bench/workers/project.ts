// Benchmark entry: the project's own Worker (src/) with no optional feature, serving the generated
// bench functions. Built by bench/src; never part of worker.ts. Each bench/projectWith*.ts
// entry adds one feature, so the difference between the two builds is that feature's cost.

import type { Env } from 'agent-functions';
import { createWorker } from 'agent-functions/worker';
import { z } from 'zod';
import { functions } from './projectFunctions.ts';

// Replaced at build time; the typeof guard keeps an unbuilt import working.
declare const BENCH_JITLESS: boolean;

if (typeof BENCH_JITLESS === 'boolean' && BENCH_JITLESS) z.config({ jitless: true });

export default createWorker({ functions }) satisfies ExportedHandler<Env>;
