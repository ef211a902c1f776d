// Child process of the memory benchmark (needs --expose-gc): prints the heap retained per function
// by `copies` registries of `count` generated definitions, each translated once, as JSON.
// Usage: node --expose-gc bench/src/memoryProbe.ts <count>
import { type BenchRegistry, loadBenchModules } from './benchModules.ts';

const { benchFunctions, createRegistry } = await loadBenchModules();

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with --expose-gc');

const settledHeap = (): number => {
  for (let i = 0; i < 4; i++) gc();
  return process.memoryUsage().heapUsed;
};

const count = Number(process.argv[2]);
// Small registries are repeated so that every count measures about 1,000 functions in all.
const copies = Math.max(1, Math.round(1000 / count));

// Warm-up: load every module and run one translation, so their one-off costs are not counted.
createRegistry(benchFunctions(1)).get('quote_seats');

const before = settledHeap();
const definitions = Array.from({ length: copies }, () => benchFunctions(count));
const defined = settledHeap();
const registries: BenchRegistry[] = definitions.map((d) => createRegistry(d));
for (const registry of registries) for (const name of registry.names()) registry.get(name);
const registered = settledHeap();

const functions = count * copies;
process.stdout.write(
  `${JSON.stringify({
    count,
    definitionBytes: (defined - before) / functions,
    registeredBytes: (registered - before) / functions,
    // Keeps both alive until measured.
    held: definitions.length + registries.length,
  })}\n`,
);
