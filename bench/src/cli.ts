// `npm run bench`: builds the benchmark Workers, measures every part side by side in one run, and
// prints the tables (or --json, or --markdown: the one results table of docs/performance.md).
// A benchmark, not a test: it asserts nothing about speed.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCOUNTS } from '../workers/accountsScale.ts';
import { measureAccounts } from './accounts.ts';
import { measureApproval } from './approval.ts';
import { HELP, type Part, parseBenchArgs, runsPiece } from './args.ts';
import { type BuiltWorker, buildWorker } from './buildWorker.ts';
import { measureConversations } from './conversations.ts';
import { measureEventAck } from './events.ts';
import { measureInvocation, measureInvocationCpu } from './invocation.ts';
import { measureLint } from './lintBench.ts';
import { measureMemory } from './memory.ts';
import { useMemoryStorage } from './memoryStorage.ts';
import { type MetricsResults, measureMetrics } from './metrics.ts';
import { metricsTable, metricsVerdicts } from './metricsReport.ts';
import {
  allTables,
  type BenchResults,
  LINT_FUNCTIONS,
  measuredLine,
  resultsTable,
  type SizeResult,
  SYNC_FUNCTIONS,
  targetVerdicts,
} from './report.ts';
import { measureStartup } from './startupCpu.ts';
import { measureLocalStats, STATS_RECORDS } from './statsBench.ts';
import { storedAccountsDefine } from './storedAccounts.ts';
import { measureSyncAccounts } from './syncAccounts.ts';
import { measureSync } from './syncBench.ts';
import { renderMarkdown, renderTable } from './table.ts';
import { useBenchV8Flags } from './v8Flags.ts';
import { canCountCpu } from './workerdCpu.ts';

// Every Worker this run builds: entry, build-time defines, and whether part 2 profiles it.
const BUILDS = {
  baseline: { label: 'baseline (by hand)', entry: 'bench/workers/baseline.ts', defines: {}, profile: true },
  // The anchor of a deduplicated write: the baseline plus the same durable claim, by hand.
  baselineDedupe: {
    label: 'baseline with the durable claim of a write (by hand)',
    entry: 'bench/workers/baselineDedupe.ts',
    defines: {},
    profile: false,
  },
  baselineZod: {
    label: 'baseline validating with zod',
    entry: 'bench/workers/baselineZod.ts',
    defines: {},
    profile: false,
  },
  bareZod: { label: 'bare zod', entry: 'bench/workers/bareZod.ts', defines: {}, profile: true },
  bareZodJitless: {
    label: 'bare zod, z.config({ jitless: true })',
    entry: 'bench/workers/bareZod.ts',
    defines: { BENCH_JITLESS: 'true' },
    profile: true,
  },
  bareZodMini: { label: 'bare zod/mini', entry: 'bench/workers/bareZodMini.ts', defines: {}, profile: true },
  project: { label: 'project', entry: 'bench/workers/project.ts', defines: { BENCH_FUNCTIONS: '1' }, profile: true },
  // Each optional feature: the same project with one option of createWorker turned on.
  projectWithPlatform: {
    label: 'project + context.platform',
    entry: 'bench/workers/projectWithPlatform.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: true,
  },
  projectWithOpenapi: {
    label: 'project + /openapi.json',
    entry: 'bench/workers/projectWithOpenapi.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: true,
  },
  projectWithMcp: {
    label: 'project + /mcp (MCP, OAuth)',
    entry: 'bench/workers/projectWithMcp.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: true,
  },
  projectWithConversations: {
    label: 'project + conversations (dedupe, deferred)',
    entry: 'bench/workers/projectWithConversations.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: true,
  },
  projectWithAccounts: {
    label: 'project serving 5,000 accounts (clients in the store)',
    entry: 'bench/workers/projectWithAccounts.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: false,
  },
  // An agency's Worker with its clients' keys in the account store: the same at 5 and 5,000 clients.
  projectStored5: {
    label: 'project, 5 clients in the account store',
    entry: 'bench/workers/projectWithStoredAccounts.ts',
    defines: { BENCH_FUNCTIONS: '1', BENCH_STORED_ACCOUNTS: storedAccountsDefine(5) },
    profile: true,
  },
  projectStored5000: {
    label: 'project, 5,000 clients in the account store',
    entry: 'bench/workers/projectWithStoredAccounts.ts',
    defines: { BENCH_FUNCTIONS: '1', BENCH_STORED_ACCOUNTS: storedAccountsDefine(5000) },
    profile: true,
  },
  projectWithApproval: {
    label: 'project + approval',
    entry: 'bench/workers/projectWithApproval.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: true,
  },
  projectWithMetrics: {
    label: 'project + metrics (figures, alerts)',
    entry: 'bench/workers/projectWithMetrics.ts',
    defines: { BENCH_FUNCTIONS: '1', BENCH_METRICS: 'true' },
    profile: true,
  },
  // The anchor of a call with metrics on: the same entry with the option off.
  projectMetricsOff: {
    label: 'project with metrics off',
    entry: 'bench/workers/projectWithMetrics.ts',
    defines: { BENCH_FUNCTIONS: '1', BENCH_METRICS: 'false' },
    profile: false,
  },
  alertsScale: {
    label: 'alert evaluation over 500 accounts',
    entry: 'bench/workers/alertsScale.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: false,
  },
  projectWithEvents: {
    label: 'project + events (webhook, queue)',
    entry: 'bench/workers/projectWithEvents.ts',
    defines: { BENCH_FUNCTIONS: '1' },
    profile: true,
  },
  project10: {
    label: 'project, 10 functions',
    entry: 'bench/workers/project.ts',
    defines: { BENCH_FUNCTIONS: '10' },
    profile: false,
  },
  project1000: {
    label: 'project, 1,000 functions',
    entry: 'bench/workers/project.ts',
    defines: { BENCH_FUNCTIONS: '1000' },
    profile: false,
  },
} as const;

type BuildId = keyof typeof BUILDS;

/** The Workers each part serves (size measures every profiled one): a run builds only these. */
const SERVED: Partial<Record<Part, BuildId[]>> = {
  invocation: ['baseline', 'baselineZod', 'project10', 'project1000', 'projectWithEvents'],
  conversations: ['projectWithConversations', 'baselineDedupe'],
  accounts: ['project', 'projectWithAccounts'],
  approval: ['projectWithApproval'],
  metrics: ['projectWithMetrics', 'projectMetricsOff', 'alertsScale'],
};

const buildsFor = (parts: readonly Part[]): BuildId[] =>
  (Object.keys(BUILDS) as BuildId[]).filter(
    (id) => (parts.includes('size') && BUILDS[id].profile) || parts.some((part) => SERVED[part]?.includes(id)),
  );

const progress = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** The checked-out commit, `-dirty` when files differ from it; undefined outside a git checkout. */
const currentCommit = (): string | undefined => {
  const git = (...args: string[]) => spawnSync('git', args, { encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return undefined;
  const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? '-dirty' : ''}`;
};

type BenchArgs = ReturnType<typeof parseBenchArgs>;

/** Builds the Workers of the run's parts in `dir`, two at a time (one per core). */
const buildAll = async (args: BenchArgs, dir: string): Promise<Record<BuildId, BuiltWorker>> => {
  const built = {} as Record<BuildId, BuiltWorker>;
  // Two builds at a time: one per core.
  const ids = buildsFor(args.parts);
  for (let i = 0; i < ids.length; i += 2) {
    const pair = ids.slice(i, i + 2);
    progress(`building ${pair.map((id) => BUILDS[id].label).join(' and ')}`);
    const outputs = await Promise.all(
      pair.map((id) => buildWorker(BUILDS[id].entry, BUILDS[id].defines, join(dir, id))),
    );
    pair.forEach((id, j) => {
      built[id] = outputs[j] as BuiltWorker;
    });
  }

  return built;
};

/** Part 1a: each profiled Worker's gzip size and start-up CPU (when workerd's CPU can be counted). */
const measureSizes = async (args: BenchArgs, built: Record<BuildId, BuiltWorker>, results: BenchResults) => {
  const { settings } = args;
  const profiled = (Object.keys(BUILDS) as BuildId[]).filter((id) => BUILDS[id].profile);
  const startup =
    args.parts.includes('size') && (await canCountCpu())
      ? await measureStartup(
          Object.fromEntries(
            await Promise.all(profiled.map(async (id) => [id, await readFile(built[id].scriptPath, 'utf8')] as const)),
          ),
          settings.startupRuns,
          settings.startupCopies,
          progress,
        )
      : {};
  if (args.parts.includes('size')) {
    results.size = profiled.map(
      (id): SizeResult => ({
        worker: BUILDS[id].label,
        gzipBytes: built[id].gzipBytes,
        startupMs: startup[id] ?? [],
      }),
    );
  }
};

/** The parts served by built Workers: invocation, events, conversations, accounts, approval, metrics (returned: its own table). */
const measureWorkerParts = async (
  args: BenchArgs,
  built: Record<BuildId, BuiltWorker>,
  results: BenchResults,
): Promise<MetricsResults | undefined> => {
  const { settings } = args;
  let metrics: MetricsResults | undefined;
  const invocationWorkers = {
    baseline: built.baseline,
    baselineZod: built.baselineZod,
    project10: built.project10,
    project1000: built.project1000,
  };
  if (runsPiece(args, 'invocation', 'sockets')) {
    progress('invocation: warm-up, then interleaved slices');
    results.invocation = await measureInvocation(invocationWorkers, settings, progress);
  }
  if (runsPiece(args, 'invocation', 'cpu')) {
    progress('invocation: CPU per call inside each isolate, alternating batches');
    results.invocationCpu = await measureInvocationCpu(invocationWorkers, settings);
  }
  if (runsPiece(args, 'invocation', 'events')) {
    progress('invocation: event deliveries against function calls');
    results.events = await measureEventAck(built.projectWithEvents, settings, progress);
  }
  if (args.parts.includes('conversations')) {
    progress('conversations: reads, writes and deferred calls against a plain call');
    results.conversations = await measureConversations(
      built.projectWithConversations,
      built.baselineDedupe,
      {
        ...settings,
        load: runsPiece(args, 'conversations', 'load'),
        deferred: runsPiece(args, 'conversations', 'deferred'),
      },
      progress,
    );
  }
  if (args.parts.includes('accounts')) {
    progress(`accounts: a call through the ${ACCOUNTS}th account against a single-account Worker`);
    results.accounts = await measureAccounts(built.project, built.projectWithAccounts, settings, progress);
  }
  if (args.parts.includes('approval')) {
    progress('approval: a write declaring approval below its threshold against the same write, and the ask');
    results.approval = await measureApproval(built.projectWithApproval, settings, progress);
  }
  if (args.parts.includes('metrics')) {
    progress('metrics: a call with metrics on against off, and one alert evaluation over 500 accounts');
    metrics = await measureMetrics(
      built.projectMetricsOff,
      built.projectWithMetrics,
      built.alertsScale,
      settings,
      progress,
    );
  }
  return metrics;
};

/** The parts run in Node: memory, sync (one account and many), the description lint, local stats. */
/** The sync-store part: each count of clients kept in a running Worker's store, plain, with an outage, and lossy. */
const measureStoredSync = async (counts: number[], results: BenchResults) => {
  results.syncAccounts ??= [];
  for (const accounts of counts) {
    for (const faults of [undefined, 'outage', 'lossy'] as const) {
      progress(`sync-store: ${accounts} accounts in the store, 50 ms per answer${faults ? `, ${faults}` : ''}`);
      results.syncAccounts.push(
        ...(await measureSyncAccounts(accounts, { latencyMs: 50, keys: 'store', ...(faults ? { faults } : {}) })),
      );
    }
  }
};

const measureToolParts = async (args: BenchArgs, results: BenchResults) => {
  const { settings } = args;
  if (args.parts.includes('memory')) {
    progress('memory: 10 and 1,000 functions');
    results.memory = [await measureMemory(10), await measureMemory(1000)];
  }
  if (args.parts.includes('sync')) {
    progress(`sync: ${SYNC_FUNCTIONS} functions against the local emulator`);
    results.sync = await measureSync(SYNC_FUNCTIONS, { storm: settings.storm });
    results.syncAccounts = [];
    for (const accounts of settings.syncAccounts) {
      for (const latencyMs of [0, 50]) {
        progress(`sync: ${accounts} accounts, ${latencyMs} ms per answer`);
        results.syncAccounts.push(...(await measureSyncAccounts(accounts, { latencyMs })));
      }
    }
    const largest = Math.max(...settings.syncAccounts);
    progress(`sync: ${largest} accounts, 50 ms per answer, one answering 503 and one 401`);
    results.syncAccounts.push(...(await measureSyncAccounts(largest, { latencyMs: 50, faults: 'outage' })));
    progress(`sync: ${largest} accounts, 50 ms per answer, answers lost, 429s and 503s now and then`);
    results.syncAccounts.push(...(await measureSyncAccounts(largest, { latencyMs: 50, faults: 'lossy' })));
  }
  if (args.parts.includes('sync-store')) await measureStoredSync(settings.storeAccounts, results);
  if (args.parts.includes('lint')) {
    progress(`lint: the offline description check of ${LINT_FUNCTIONS} functions`);
    results.lint = await measureLint(LINT_FUNCTIONS, 5);
  }
  if (args.parts.includes('stats')) {
    progress(`stats: local npm run stats over ${STATS_RECORDS.toLocaleString('en')} recorded calls`);
    results.stats = await measureLocalStats(STATS_RECORDS, args.quick ? 2 : 5);
  }
};

/** Prints the results: --json, --markdown (docs/performance.md's table), or the tables. */
const printResults = (args: BenchArgs, results: BenchResults, metrics: MetricsResults | undefined) => {
  if (args.json) {
    const metricsPart = metrics ? { metrics, metricsTargets: metricsVerdicts(metrics) } : {};
    process.stdout.write(
      `${JSON.stringify({ ...results, ...metricsPart, targets: targetVerdicts(results) }, null, 2)}\n`,
    );
  } else if (args.markdown) {
    // Part 1f has its own table (its rows are not ratios against the baselines): it follows.
    const tables = [
      renderMarkdown(resultsTable(results), { title: false }),
      ...(metrics ? [renderMarkdown(metricsTable(metrics))] : []),
    ];
    process.stdout.write(`${measuredLine(results, args.quick)}\n\n${tables.join('\n\n')}\n`);
  } else {
    process.stdout.write(`agent-functions benchmark. ${measuredLine(results, args.quick)}\n\n`);
    const tables = [...allTables(results), ...(metrics ? [metricsTable(metrics)] : [])];
    process.stdout.write(`${tables.map(renderTable).join('\n\n')}\n`);
  }
};

const main = async (): Promise<number> => {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return 0;
  }
  // Before any Worker starts: every workerd of the run gets the same V8 flags, and keeps its
  // Durable Object and Workflow storage in memory.
  const v8Flags = useBenchV8Flags();
  const storage = useMemoryStorage();
  const results: BenchResults = {
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      date: new Date().toISOString(),
      commit: currentCommit(),
      ...(v8Flags ? { v8Flags } : {}),
      ...(storage ? { storage } : {}),
    },
    settings: args.settings,
  };
  // Part 1f reports beside the other parts (its own table, bench/src/metricsReport.ts).
  let metrics: MetricsResults | undefined;
  const dir = await mkdtemp(join(tmpdir(), 'agent-functions-bench-'));
  try {
    const built = await buildAll(args, dir);
    await measureSizes(args, built, results);
    metrics = await measureWorkerParts(args, built, results);
    await measureToolParts(args, results);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  printResults(args, results, metrics);
  return 0;
};

process.exitCode = await main();
