// Results -> tables and target verdicts. Pure: the runner measures, this file only reads numbers.
import type { AccountsResults } from './accounts.ts';
import type { ApprovalResults } from './approval.ts';
import type { BenchSettings } from './args.ts';
import { BURST, burstP99, type ConversationResults, type DeferredStages, deferredP99 } from './conversations.ts';
import type { EventAckRounds } from './events.ts';
import { SLICES_PER_ROUND } from './interleave.ts';
import type { CaseId, InvocationCpu, InvocationRounds } from './invocation.ts';
import type { LintBenchResult } from './lintBench.ts';
import type { LoadResult } from './loadTest.ts';
import type { MemoryResult } from './memory.ts';
import {
  type Interval,
  median,
  pairedDifference,
  pairedDifferences,
  pairedRatio,
  pairRatios,
  percentile,
  quantileInterval,
} from './stats.ts';
import { type StatsBenchResult, statsTable, statsVerdict } from './statsBench.ts';
import { ACCOUNT_FUNCTIONS, ACCOUNT_RATE_LIMIT, type SyncAccountsResult } from './syncAccounts.ts';
import type { SyncRunResult } from './syncBench.ts';
import { type Cell, signed, type Table, text } from './table.ts';

/** Size and start-up of one bundled Worker. */
export interface SizeResult {
  worker: string;
  gzipBytes: number;
  /** workerd main-thread CPU of each start-up sample (bench/src/startupCpu.ts), in ms; entry k of every Worker was measured side by side. */
  startupMs: number[];
}

/** Everything one run measured; absent parts were not run, `pending` says why. */
export interface BenchResults {
  /**
   * Where and when: `commit` is the checked-out commit (`-dirty` with uncommitted changes), when git
   * knows it; `v8Flags` the flags every workerd of the run had (bench/src/v8Flags.ts), when any;
   * `storage` the memory folder that held the local runtime's storage (bench/src/memoryStorage.ts), when one did.
   */
  machine: {
    cpus: number;
    cpuModel: string;
    node: string;
    date: string;
    commit?: string;
    v8Flags?: string;
    storage?: string;
  };
  settings: BenchSettings;
  invocation?: InvocationRounds;
  invocationCpu?: InvocationCpu;
  /** Part 1c: event deliveries acknowledged, beside function calls on the same Worker. */
  events?: EventAckRounds;
  /** Part 1d: reads, writes and deferred calls within a conversation, beside a plain call. */
  conversations?: ConversationResults;
  /** Part 1e: a call through the 500th account of a Worker serving 500, beside a single-account Worker. */
  accounts?: AccountsResults;
  /** Part 1f: a write declaring approval below its threshold beside the same write, and the ask. */
  approval?: ApprovalResults;
  size?: SizeResult[];
  sync?: SyncRunResult[] | { pending: string };
  /** Part 3b: sync of many accounts, first and no-op, with and without latency, and with failing accounts. */
  syncAccounts?: SyncAccountsResult[];
  memory?: MemoryResult[];
  /** Part 5: the offline description check (rules, siblings, golden prompts). */
  lint?: LintBenchResult;
  /** Part 6: local npm run stats over 100,000 recorded calls. */
  stats?: StatsBenchResult;
}

/** One target of docs/performance.md and whether this run met it. */
export interface TargetVerdict {
  target: string;
  measured: string;
  /** Whether the measure (the median of pairs, the p99, the count) meets the target. */
  met: boolean;
  /** Where the measure lies (a ratio of pairs, a percentile of samples); absent for counts and sizes. */
  interval?: Interval;
  /** The interval straddles the target: this run cannot say met or missed (`--repeat` narrows it). */
  unsure?: boolean;
}

/** A verdict as the tables print it. */
export const verdictText = (verdict: TargetVerdict): string => (verdict.unsure ? 'unsure' : verdict.met ? 'yes' : 'NO');

/** How sure the tables say a verdict is: a two-sided interval of at least this confidence. */
export const CONFIDENCE = 0.95;

/** A bound on a measure: at most (`<=`) or at least (`>=`) `bound`. */
export interface Bound {
  at: '<=' | '>=';
  bound: number;
}

const within = (value: number, { at, bound }: Bound) => (at === '<=' ? value <= bound : value >= bound);

/**
 * A target judged on an estimate and its interval: met when the whole interval meets the bound,
 * missed when none of it does, unsure in between. The estimate alone decides `met` (what the run
 * measured); `unsure` says the run cannot tell.
 * @example judge('p99 <= 1.1x', 1.05, { low: 0.98, high: 1.12, confidence: 0.97 }, { at: '<=', bound: 1.1 }, ratio).unsure // true
 */
export const judge = (
  target: string,
  estimate: number,
  interval: Interval,
  bound: Bound,
  format: (value: number, interval: Interval) => string,
): TargetVerdict => {
  const met = Number.isFinite(estimate) && within(estimate, bound);
  const all = within(interval.low, bound) && within(interval.high, bound);
  const none = !within(interval.low, bound) && !within(interval.high, bound);
  return { target, measured: format(estimate, interval), met, interval, unsure: !(all || none) };
};

/** `1.05x (0.98-1.12)`: a ratio and its interval; an unbounded side reads "?". */
export const ratioWithInterval = (value: number, interval: Interval): string =>
  `${ratio(value)} (${bounded(interval.low, ratio)}-${bounded(interval.high, ratio)})`;

const bounded = (value: number, format: (v: number) => string) => (Number.isFinite(value) ? format(value) : '?');

/**
 * A target on the ratio of measurements taken side by side (round k of a against round k of b):
 * the median of the per-pair ratios, with the order-statistic interval of that median.
 * @example ratioVerdict('valid-call p99 <= 1.1x baseline', projectP99s, baselineP99s, { at: '<=', bound: 1.1 })
 */
export const ratioVerdict = (
  target: string,
  a: readonly number[],
  b: readonly number[],
  bound: Bound,
  format: (value: number, interval: Interval) => string = ratioWithInterval,
): TargetVerdict => {
  const ratios = pairRatios(a, b);
  return judge(target, median(ratios), quantileInterval(ratios, 0.5, CONFIDENCE), bound, format);
};

/**
 * A target on a percentile (99: p99) of single samples, with the order-statistic interval of that
 * percentile: 60 samples bound a p99 from below only, about 370 from both sides.
 * @example percentileVerdict('first answer p99 <= 530 ms', latencies, 99, { at: '<=', bound: 530 })
 */
export const percentileVerdict = (
  target: string,
  samples: readonly number[],
  p: number,
  bound: Bound,
  format: (value: number, interval: Interval) => string,
): TargetVerdict =>
  judge(target, percentile(samples, p), quantileInterval(samples, p / 100, CONFIDENCE), bound, format);

/** Functions the offline description check is measured on, and its target in ms (on 2 cores). */
export const LINT_FUNCTIONS = 100;
export const LINT_TARGET_MS = 5000;

/** Functions whose sync is measured, and the emulator's list page size (its default). */
export const SYNC_FUNCTIONS = 200;
export const SYNC_PAGE_SIZE = 20;

const KIB = 1024;
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');
const rounds = (inv: InvocationRounds, id: CaseId, metric: keyof LoadResult) => inv[id].map((r) => r[metric]);
const med = (inv: InvocationRounds, id: CaseId, metric: keyof LoadResult) => median(rounds(inv, id, metric));
const paired = (inv: InvocationRounds, a: CaseId, b: CaseId, metric: keyof LoadResult) =>
  pairedRatio(rounds(inv, a, metric), rounds(inv, b, metric));

/** The ratios the targets are judged on, each the median of per-round paired ratios. */
export const invocationRatios = (inv: InvocationRounds) => ({
  validThroughput: paired(inv, 'project-10/valid', 'baseline/valid', 'requestsPerSecond'),
  validP50: paired(inv, 'project-10/valid', 'baseline/valid', 'p50Ms'),
  validP99: paired(inv, 'project-10/valid', 'baseline/valid', 'p99Ms'),
  invalidThroughput: paired(inv, 'project-10/invalid', 'baseline/invalid', 'requestsPerSecond'),
  invalidP50: paired(inv, 'project-10/invalid', 'baseline/invalid', 'p50Ms'),
  invalidP99: paired(inv, 'project-10/invalid', 'baseline/invalid', 'p99Ms'),
  validZodThroughput: paired(inv, 'baseline-zod/valid', 'baseline/valid', 'requestsPerSecond'),
  validOverZodThroughput: paired(inv, 'project-10/valid', 'baseline-zod/valid', 'requestsPerSecond'),
  invalidZodP50: paired(inv, 'baseline-zod/invalid', 'baseline/invalid', 'p50Ms'),
  invalidOverZodP50: paired(inv, 'project-10/invalid', 'baseline-zod/invalid', 'p50Ms'),
  manyP50: paired(inv, 'project-1000/valid', 'project-10/valid', 'p50Ms'),
  manyThroughput: paired(inv, 'project-1000/valid', 'project-10/valid', 'requestsPerSecond'),
});

/** Part 1 as a table: medians per case, and ratios against the case each is compared with. */
export const invocationTable = (inv: InvocationRounds, settings: BenchSettings): Table => {
  const r = invocationRatios(inv);
  const row = (label: string, id: CaseId, against: string, ratios: [number, number, number] | null): Cell[] => [
    label,
    med(inv, id, 'requestsPerSecond'),
    med(inv, id, 'p50Ms'),
    med(inv, id, 'p99Ms'),
    against,
    ...(ratios ? ratios.map(ratio) : [null, null, null]),
  ];
  return {
    title: '1. Invocation on local workerd (medians of interleaved slices)',
    columns: ['call', 'req/s', 'p50 ms', 'p99 ms', 'ratio vs', 'req/s x', 'p50 x', 'p99 x'],
    rows: [
      row('project, 10 functions, valid', 'project-10/valid', 'baseline', [r.validThroughput, r.validP50, r.validP99]),
      row('baseline (by hand), valid', 'baseline/valid', '-', null),
      row('baseline validating with zod, valid', 'baseline-zod/valid', 'baseline', [
        r.validZodThroughput,
        paired(inv, 'baseline-zod/valid', 'baseline/valid', 'p50Ms'),
        paired(inv, 'baseline-zod/valid', 'baseline/valid', 'p99Ms'),
      ]),
      row('project, 1,000 functions, valid', 'project-1000/valid', '10 functions', [
        r.manyThroughput,
        r.manyP50,
        paired(inv, 'project-1000/valid', 'project-10/valid', 'p99Ms'),
      ]),
      row('project, 10 functions, invalid (422)', 'project-10/invalid', 'baseline', [
        r.invalidThroughput,
        r.invalidP50,
        r.invalidP99,
      ]),
      row('baseline (by hand), invalid (422)', 'baseline/invalid', '-', null),
      row('baseline validating with zod, invalid (422)', 'baseline-zod/invalid', 'baseline', [
        paired(inv, 'baseline-zod/invalid', 'baseline/invalid', 'requestsPerSecond'),
        r.invalidZodP50,
        paired(inv, 'baseline-zod/invalid', 'baseline/invalid', 'p99Ms'),
      ]),
      row('project with a signing secret, unsigned call', 'project-signing/unsigned', '-', null),
      row('project with a signing secret, signed call', 'project-signing/signed', 'unsigned call', [
        paired(inv, 'project-signing/signed', 'project-signing/unsigned', 'requestsPerSecond'),
        paired(inv, 'project-signing/signed', 'project-signing/unsigned', 'p50Ms'),
        paired(inv, 'project-signing/signed', 'project-signing/unsigned', 'p99Ms'),
      ]),
    ],
    notes: [
      `${settings.connections} connections, closed loop (autocannon), ${settings.rounds} round(s) of ${settings.seconds} s per call after a warm-up, each cut into ${SLICES_PER_ROUND} slices interleaved call shape by call shape; ratios are medians of per-slice paired ratios.`,
      `Split of the valid-call gap: zod alone ${ratio(r.validZodThroughput)} of the baseline's req/s; the framework around zod ${ratio(r.validOverZodThroughput)} of the zod baseline's.`,
    ],
  };
};

/** The CPU ratios, each the median of per-batch paired ratios. */
export const cpuRatios = (cpu: InvocationCpu) => ({
  valid: pairedRatio(cpu.valid.project10, cpu.valid.baseline),
  validOverZod: pairedRatio(cpu.valid.project10, cpu.valid.baselineZod),
  validZod: pairedRatio(cpu.valid.baselineZod, cpu.valid.baseline),
  invalid: pairedRatio(cpu.invalid.project10, cpu.invalid.baseline),
  invalidOverZod: pairedRatio(cpu.invalid.project10, cpu.invalid.baselineZod),
  invalidZod: pairedRatio(cpu.invalid.baselineZod, cpu.invalid.baseline),
  many: pairedRatio(cpu.valid.project1000, cpu.valid.project10),
});

/** Part 1b as a table: CPU per call inside the isolate, and its paired ratios. */
export const cpuTable = (cpu: InvocationCpu, settings: BenchSettings): Table => {
  const r = cpuRatios(cpu);
  const row = (label: string, values: number[], against: string, value: number | null): Cell[] => [
    label,
    median(values),
    against,
    value === null ? null : ratio(value),
  ];
  return {
    title: '1b. CPU per call inside the isolate (workerd main thread, medians of alternating batches)',
    columns: ['call', 'CPU us/call', 'ratio vs', 'CPU x'],
    rows: [
      row('project, 10 functions, valid', cpu.valid.project10, 'baseline', r.valid),
      row('baseline (by hand), valid', cpu.valid.baseline, '-', null),
      row('baseline validating with zod, valid', cpu.valid.baselineZod, 'baseline', r.validZod),
      row('project, 10 functions, valid', cpu.valid.project10, 'zod baseline', r.validOverZod),
      row('project, 1,000 functions, valid', cpu.valid.project1000, '10 functions', r.many),
      row('project, 10 functions, invalid (422)', cpu.invalid.project10, 'baseline', r.invalid),
      row('baseline (by hand), invalid (422)', cpu.invalid.baseline, '-', null),
      row('baseline validating with zod, invalid (422)', cpu.invalid.baselineZod, 'baseline', r.invalidZod),
      row('project, 10 functions, invalid (422)', cpu.invalid.project10, 'zod baseline', r.invalidOverZod),
    ],
    notes: [
      `A driver in each Worker's isolate calls its fetch handler ${settings.cpuCalls} times per batch (Request and Response objects, no socket); ${settings.cpuBatches} batches per Worker, alternating; CPU = Linux schedstat of workerd's main thread.`,
      'Lower is better; 1/ratio is the throughput ratio a CPU-bound isolate would reach (the sockets, which cost every Worker alike, are left out).',
    ],
  };
};

/** Part 1c as a table: a signed event delivery's acknowledgement against a function call. */
export const eventsTable = (events: EventAckRounds, settings: BenchSettings): Table => {
  const metric = (name: keyof EventAckRounds, key: keyof LoadResult) => median(events[name].map((r) => r[key]));
  const versus = (key: keyof LoadResult) =>
    ratio(
      pairedRatio(
        events.delivery.map((r) => r[key]),
        events.call.map((r) => r[key]),
      ),
    );
  const row = (label: string, name: keyof EventAckRounds, against: string, ratios: Cell[]): Cell[] => [
    label,
    Math.round(metric(name, 'requestsPerSecond')),
    metric(name, 'p50Ms'),
    metric(name, 'p99Ms'),
    against,
    ...ratios,
  ];
  return {
    title: '1c. Event delivery acknowledged (202 once queued), on the project Worker with events',
    columns: ['request', 'req/s', 'p50 ms', 'p99 ms', 'ratio vs', 'req/s x', 'p50 x', 'p99 x'],
    rows: [
      row('signed delivery to /events', 'delivery', 'function call', [
        versus('requestsPerSecond'),
        versus('p50Ms'),
        versus('p99Ms'),
      ]),
      row('valid function call, same Worker', 'call', '-', [null, null, null]),
    ],
    notes: [
      `${settings.connections} connections, ${settings.rounds} round(s) of ${settings.seconds} s, each cut into ${SLICES_PER_ROUND} interleaved slices. A delivery reads the body, verifies the signature with the webhook's secret (read once from the local platform, then cached), and sends the delivery to the queue (Miniflare's, no consumer) before it answers.`,
    ],
  };
};

/** Size rows of the project with one optional feature turned on are labelled `project + <feature>`. */
export const FEATURE_PREFIX = 'project + ';

/** Part 2 as a table, with the framework's own share (project minus bare zod). */
export const sizeTable = (size: SizeResult[]): Table => {
  const byName = new Map(size.map((s) => [s.worker, s]));
  const startup = (s: SizeResult | undefined) => (s ? median(s.startupMs) : Number.NaN);
  const project = byName.get('project');
  const bare = byName.get('bare zod');
  const rows = size.map((s): Cell[] => [s.worker, s.gzipBytes / KIB, startup(s), s.startupMs.length]);
  const notes: string[] = [];
  if (project && bare) {
    const differences = pairedDifferences(project.startupMs, bare.startupMs);
    rows.push([
      'framework share (project - bare zod)',
      (project.gzipBytes - bare.gzipBytes) / KIB,
      median(differences),
      null,
    ]);
    notes.push(
      `The share's start-up is the median of ${differences.length} paired differences; their middle half spans ${percentile(differences, 25).toFixed(2)} to ${percentile(differences, 75).toFixed(2)} ms.`,
    );
  }
  // What each optional feature adds to the project that turns it on (a project without it pays nothing).
  for (const feature of size.filter((s) => s.worker.startsWith(FEATURE_PREFIX))) {
    if (!project) break;
    rows.push([
      `${feature.worker.slice(FEATURE_PREFIX.length)}: cost when turned on`,
      (feature.gzipBytes - project.gzipBytes) / KIB,
      pairedDifference(feature.startupMs, project.startupMs),
      null,
    ]);
  }
  return {
    title: '2. Bundle size and start-up',
    columns: ['worker', 'gzip KiB', 'start-up CPU ms', 'runs'],
    rows,
    notes: [
      'gzip: node:zlib (default level) of the module wrangler deploy --dry-run bundles (minified, as deployed).',
      "start-up: CPU time of workerd's main thread (Linux schedstat, not wall-clock) for an isolate's first request, which compiles and evaluates the bundle, minus an empty bundle's; median of fresh isolates, several per workerd process, in rotated order.",
      ...notes,
    ],
  };
};

/** Part 3 as a table, or a line saying why it is pending. */
export const syncTable = (sync: BenchResults['sync']): Table => {
  if (!sync || !Array.isArray(sync)) {
    return {
      title: `3. Sync of ${SYNC_FUNCTIONS} functions`,
      columns: ['run', 'status'],
      rows: [['all', 'pending']],
      notes: [sync && 'pending' in sync ? sync.pending : 'not run'],
    };
  }
  return {
    title: `3. Sync of ${SYNC_FUNCTIONS} functions against the local emulator`,
    columns: ['run', 'list requests', 'writes', '429s', 'wall ms', 'result'],
    rows: sync.map((s) => [s.scenario, s.reads, s.writes, s.rateLimited, s.wallMs, s.status]),
    notes: [
      `Counted from the emulator's request log; list pages hold ${SYNC_PAGE_SIZE} functions; writes include retried ones.`,
    ],
  };
};

/** Part 3b as a table. */
export const syncAccountsTable = (runs: SyncAccountsResult[]): Table => ({
  title: `3b. Sync of many accounts (${ACCOUNT_FUNCTIONS} functions and the events webhook each) against the local platform`,
  columns: [
    'keys',
    'accounts',
    'ms per answer',
    'run',
    'list requests',
    'writes',
    '429s',
    'wall s',
    'healthy done s',
    'result',
  ],
  rows: runs.map((r) => [
    KEYS_LABEL[r.keys],
    r.accounts,
    r.latencyMs,
    r.scenario,
    r.reads,
    r.writes,
    r.rateLimited,
    r.wallMs / 1000,
    r.healthyDoneMs / 1000,
    `${Object.entries(r.statuses)
      .map(([status, count]) => `${count} ${status}`)
      .join(', ')}; exit ${r.exitCode}`,
  ]),
  notes: [
    `The real command in-process (scripts/sync/cli.ts, default --account-concurrency); one key per account, each limited to ${ACCOUNT_RATE_LIMIT.limit} requests per ${ACCOUNT_RATE_LIMIT.windowMs / 1000} s; "ms per answer" is added to every answer (the emulator's slowMs).`,
    '"one 503, one 401": the second account\'s platform answers 503 to everything and the third\'s key is refused; "healthy done": when the last other account got its last answer.',
    '"answers lost, 429s, 5xx": every 50th create is applied but its answer dropped, every 100th request answers 429 (Retry-After: 1), every 150th 503.',
    '"variables": each key in a Worker variable, the shape of a few accounts (a Worker holds at most 128 variables); "store": every client\'s key in the account store of a running Worker (the project\'s, under wrangler\'s dev server), each platform request through its relay (bench/src/storedKeys.ts). The store rows run with --only sync-store (--store-accounts 500,5000).',
  ],
});

const KEYS_LABEL: Record<SyncAccountsResult['keys'], string> = {
  variables: 'variables (a few accounts)',
  store: 'store, via the relay',
};

/** The part 3b targets (docs/performance.md), for the variable-key runs and the stored-key runs apart. */
const syncAccountsVerdicts = (runs: SyncAccountsResult[]): TargetVerdict[] =>
  (['variables', 'store'] as const).flatMap((keys) => {
    const group = runs.filter((r) => r.keys === keys);
    return group.length > 0 ? groupVerdicts(group, keys) : [];
  });

/** The targets of one group of runs: no-op of 500 accounts at 50 ms (5,000 in the store: 5 minutes), each function created once (5,000: within 15 minutes), failures isolated. */
const groupVerdicts = (runs: SyncAccountsResult[], keys: SyncAccountsResult['keys']): TargetVerdict[] => {
  const verdicts: TargetVerdict[] = [];
  const largest = Math.max(...runs.map((r) => r.accounts));
  const slowest = Math.max(...runs.map((r) => r.latencyMs));
  const find = (scenario: SyncAccountsResult['scenario']) =>
    runs.find((r) => r.scenario === scenario && r.accounts === largest && r.latencyMs === slowest);
  // What each group is: the store, the shape agencies deploy, or Worker variables, that of a few accounts.
  const label = keys === 'store' ? ', keys in the store' : ', keys in Worker variables (a few accounts)';
  const noopLimitS = largest >= 5000 ? 300 : 60;
  const noop = find('no-op');
  if (noop) {
    verdicts.push({
      target: `no-op sync of ${largest} accounts x ${ACCOUNT_FUNCTIONS} functions${label}, ${slowest} ms per answer: <= ${noopLimitS} s, zero writes, 2 list requests per account`,
      measured: `${(noop.wallMs / 1000).toFixed(1)} s, ${noop.writes} writes, ${noop.reads} list requests`,
      met: noop.wallMs <= noopLimitS * 1000 && noop.writes === 0 && noop.reads <= 2 * noop.accounts,
    });
  }
  const first = find('first');
  for (const created of [first, find('first, answers lost, 429s, 5xx')]) {
    if (!created) continue;
    const expected = created.accounts * ACCOUNT_FUNCTIONS;
    verdicts.push({
      target: `${created.scenario === 'first' ? 'first sync' : `first sync, ${created.scenario.slice('first, '.length)},`} of ${largest} accounts${label}: each function created exactly once${largest >= 5000 ? ', <= 15 minutes' : ''}`,
      measured: `${created.records} of ${expected} registered, ${created.duplicates} twice, ${created.rateLimited} 429s, ${(created.wallMs / 1000).toFixed(1)} s`,
      met:
        created.records === expected &&
        created.duplicates === 0 &&
        created.exitCode === 0 &&
        (largest < 5000 || created.wallMs <= 900_000),
    });
  }
  const faulty = find('one 503, one 401');
  if (faulty && first) {
    const others = faulty.statuses.synced ?? 0;
    verdicts.push({
      target: `one account answering 503 and one 401${label}: the others synced, as fast as without them (<= 1.5x), exit code non-zero`,
      measured: `${others} synced, ${faulty.statuses.failed ?? 0} failed, exit ${faulty.exitCode}; others done in ${(faulty.healthyDoneMs / 1000).toFixed(1)} s (${(faulty.healthyDoneMs / first.wallMs).toFixed(2)}x), the 503 account gave up at ${(faulty.wallMs / 1000).toFixed(1)} s`,
      met:
        others === faulty.accounts - 2 &&
        faulty.statuses.failed === 2 &&
        faulty.exitCode !== 0 &&
        faulty.healthyDoneMs <= 1.5 * first.wallMs,
    });
  }
  return verdicts;
};

/** Part 4 as a table. */
export const memoryTable = (memory: MemoryResult[]): Table => ({
  title: '4. Heap retained per registered function (Node 24, V8, --expose-gc)',
  columns: ['functions', 'definition KiB', 'registered + translated KiB'],
  rows: memory.map((m) => [m.count, m.definitionBytes / KIB, m.registeredBytes / KIB]),
  notes: ['heapUsed after gc, minus the same before, divided by the functions (about 1,000 in all per row).'],
});

/** Part 5 as a table. */
export const lintTable = (lint: LintBenchResult): Table => ({
  title: `5. Offline description check of ${lint.functions} functions (agent-functions lint functions, no Worker start)`,
  columns: ['functions', 'golden prompts', 'median ms', 'max ms', 'errors', 'warnings'],
  rows: [[lint.functions, lint.prompts, lint.medianMs, lint.maxMs, lint.errors, lint.warnings]],
  notes: [
    `Translation to the registered form, every rule, confusable siblings and the golden prompts; median of ${lint.runs} runs. The generated set is verb x thing, so same-verb and same-thing pairs are reported as confusable.`,
  ],
});

/** Part 1d's p50 ratios against the plain call, each the median of per-round paired ratios. */
export const conversationRatios = (conv: ConversationResults) => {
  const p50 = (name: ConversationCase) => (conv[name] ?? []).map((r) => r.p50Ms);
  return {
    readWithIds: pairedRatio(p50('readWithIds'), p50('plain')),
    write: pairedRatio(p50('write'), p50('plain')),
    // The write against its anchor: the hand-written Worker making the same durable claim.
    writeOverBaseline: pairedRatio(p50('write'), p50('writeBaseline')),
    writeThroughput: pairedRatio(
      (conv.write ?? []).map((r) => r.requestsPerSecond),
      (conv.writeBaseline ?? []).map((r) => r.requestsPerSecond),
    ),
    ledgerFloor: pairedRatio(p50('ledgerFloor'), p50('plain')),
    laterInTime: pairedRatio(p50('laterInTime'), p50('plain')),
  };
};

/** The load cases of part 1d. */
type ConversationCase = 'plain' | 'readWithIds' | 'write' | 'writeBaseline' | 'laterInTime' | 'ledgerFloor';

/** Where the deferred calls' interims spent their time (the Worker's own log lines), p50 and p99. */
const deferredStageRows = (stages: DeferredStages | undefined): Cell[][] =>
  stages?.claimMs.length
    ? [
        [
          'deferred, its stages: the claim (ledger round trip)',
          '-',
          percentile(stages.claimMs, 50),
          percentile(stages.claimMs, 99),
          '-',
        ],
        [
          'deferred, its stages: creating the workflow instance',
          '-',
          percentile(stages.createMs, 50),
          percentile(stages.createMs, 99),
          '-',
        ],
        [
          'deferred, its stages: answered past answerWithinMs, in the Worker',
          '-',
          percentile(stages.lateMs, 50),
          percentile(stages.lateMs, 99),
          '-',
        ],
      ]
    : [];

/** Part 1d as a table. */
export const conversationsTable = (conv: ConversationResults): Table => {
  const r = conversationRatios(conv);
  const row = (label: string, name: ConversationCase, against: number | null): Cell[] => [
    label,
    median((conv[name] ?? []).map((x) => x.requestsPerSecond)),
    median((conv[name] ?? []).map((x) => x.p50Ms)),
    median((conv[name] ?? []).map((x) => x.p99Ms)),
    against === null ? '-' : ratio(against),
  ];
  return {
    title: '1d. Within a conversation: the same function as a plain call, a read with ids, a write, a deferred call',
    columns: ['case', 'req/s', 'p50 ms', 'p99 ms', 'p50 x plain'],
    rows: [
      // The load cases and the deferred calls are pieces of the part (--only conversations.load, .deferred).
      ...(conv.plain.length
        ? [
            row('plain call (no conversation)', 'plain', null),
            row('read with conversation ids', 'readWithIds', r.readWithIds),
            row('write, deduplication checked (each call new)', 'write', r.write),
            row(
              'anchor: the same write by hand, same durable claim',
              'writeBaseline',
              pairedRatio(
                (conv.writeBaseline ?? []).map((x) => x.p50Ms),
                (conv.plain ?? []).map((x) => x.p50Ms),
              ),
            ),
            row('floor: a read with one ledger round trip, nothing written', 'ledgerFloor', r.ledgerFloor),
            row('deferred function, done in time', 'laterInTime', r.laterInTime),
          ]
        : []),
      ...(conv.deferredFirstAnswerMs.length
        ? [
            [
              `deferred function, work ${5} s: first answer`,
              '-',
              percentile(conv.deferredFirstAnswerMs, 50),
              deferredP99(conv),
              '-',
            ],
            [
              `deferred function, work ${5} s: first answer, ${BURST} at once`,
              '-',
              percentile(conv.deferredBurstMs ?? [], 50),
              burstP99(conv),
              '-',
            ],
            ...deferredStageRows(conv.deferredStages),
          ]
        : []),
    ],
    notes: [
      `answerWithinMs ${conv.answerWithinMs}; ${conv.deferredFirstAnswerMs.length} deferred calls five at a time, ${conv.deferredBurstMs?.length ?? 0} in bursts of ${BURST}; ${conv.followUps} follow-ups received by the local platform (one each is right). The write's anchor is bench/workers/baselineDedupe.ts, served beside it.`,
    ],
  };
};

/** Part 1e's ratio: the 500th account's p50 over the single-account Worker's, paired by round. */
const accountsRatio = (acc: AccountsResults): number =>
  pairedRatio(
    acc.lastOf500.map((r) => r.p50Ms),
    acc.single.map((r) => r.p50Ms),
  );

/** Part 1e as a table. */
export const accountsTable = (acc: AccountsResults): Table => {
  const row = (label: string, runs: LoadResult[], against: number | null): Cell[] => [
    label,
    median(runs.map((x) => x.requestsPerSecond)),
    median(runs.map((x) => x.p50Ms)),
    median(runs.map((x) => x.p99Ms)),
    against === null ? '-' : ratio(against),
  ];
  return {
    title: `1e. Many accounts: a call through the ${acc.accounts}th account against a single-account Worker`,
    columns: ['case', 'req/s', 'p50 ms', 'p99 ms', 'p50 x single'],
    rows: [
      row('single-account Worker', acc.single, null),
      row(`Worker serving ${acc.accounts} accounts, the last (key in the store)`, acc.lastOf500, accountsRatio(acc)),
    ],
    notes: [`The store was read ${acc.storeReads} times for that account over ${acc.minutes} minute(s) of calls.`],
  };
};

/** Part 1f's p50 ratio (below the threshold x without approval) and the ask's p99 in ms. */
export const approvalFigures = (approval: ApprovalResults) => ({
  belowThreshold: pairedRatio(
    approval.belowThreshold.map((r) => r.p50Ms),
    approval.withoutApproval.map((r) => r.p50Ms),
  ),
  askP99: percentile(approval.askSentMs, 99),
});

/** Part 1f as a table. */
export const approvalTable = (approval: ApprovalResults): Table => {
  const row = (label: string, rounds: LoadResult[], against: number | null): Cell[] => [
    label,
    median(rounds.map((x) => x.requestsPerSecond)),
    median(rounds.map((x) => x.p50Ms)),
    median(rounds.map((x) => x.p99Ms)),
    against === null ? '-' : ratio(against),
  ];
  const { belowThreshold, askP99 } = approvalFigures(approval);
  return {
    title: '1f. Approval: a write that declares approval, called below its threshold, and the ask to the team',
    columns: ['case', 'req/s', 'p50 ms', 'p99 ms', 'p50 x without'],
    rows: [
      row('write without approval (in a conversation)', approval.withoutApproval, null),
      row('the same write declaring approval, below its threshold', approval.belowThreshold, belowThreshold),
      ['a call that needs approval: the team holds the ask', '-', percentile(approval.askSentMs, 50), askP99, '-'],
    ],
    notes: [
      `${approval.askSentMs.length} calls needing approval, 5 at a time, each timed from the call until it answered (the ask is sent before the answer, and the local platform held it by then); ${approval.asks} asks received (one each is right).`,
    ],
  };
};

/** A throughput read from CPU per call (1 / CPU x), its interval, and the CPU ratio it comes from. */
const throughputFromCpu = (cpu: number, interval: Interval): string =>
  `${ratio(1 / cpu)} (${bounded(1 / interval.high, ratio)}-${bounded(1 / interval.low, ratio)}; CPU ${ratio(cpu)})`;

/** A p99 in ms and its interval. */
const p99WithInterval = (value: number, interval: Interval): string =>
  `p99 ${value.toFixed(0)} ms (${bounded(interval.low, (v) => v.toFixed(0))}-${bounded(interval.high, (v) => `${v.toFixed(0)}`)} ms)`;

/** The invocation targets (part 1), each on the per-round ratios of two cases run side by side. */
const invocationVerdicts = (inv: InvocationRounds): TargetVerdict[] => {
  const on = (target: string, a: CaseId, b: CaseId, metric: keyof LoadResult, bound: Bound) =>
    ratioVerdict(target, rounds(inv, a, metric), rounds(inv, b, metric), bound);
  return [
    on('valid-call throughput >= 0.9x baseline', 'project-10/valid', 'baseline/valid', 'requestsPerSecond', {
      at: '>=',
      bound: 0.9,
    }),
    on('valid-call p99 <= 1.15x baseline', 'project-10/valid', 'baseline/valid', 'p99Ms', { at: '<=', bound: 1.15 }),
    on('invalid-call p50 <= 1.25x baseline', 'project-10/invalid', 'baseline/invalid', 'p50Ms', {
      at: '<=',
      bound: 1.25,
    }),
    on('1,000 functions: p50 <= 1.1x of 10 functions', 'project-1000/valid', 'project-10/valid', 'p50Ms', {
      at: '<=',
      bound: 1.1,
    }),
    on(
      'stretch: valid-call throughput >= 0.95x the zod baseline',
      'project-10/valid',
      'baseline-zod/valid',
      'requestsPerSecond',
      { at: '>=', bound: 0.95 },
    ),
  ];
};

/** The same targets read from CPU per call (part 1b): throughput is 1 / CPU x, a p50 scales with CPU x. */
const cpuVerdicts = (cpu: InvocationCpu): TargetVerdict[] => [
  ratioVerdict(
    'valid-call throughput >= 0.9x baseline, by CPU per call',
    cpu.valid.project10,
    cpu.valid.baseline,
    { at: '<=', bound: 1 / 0.9 },
    throughputFromCpu,
  ),
  ratioVerdict('invalid-call p50 <= 1.25x baseline, by CPU per call', cpu.invalid.project10, cpu.invalid.baseline, {
    at: '<=',
    bound: 1.25,
  }),
  ratioVerdict('1,000 functions <= 1.1x of 10 functions, by CPU per call', cpu.valid.project1000, cpu.valid.project10, {
    at: '<=',
    bound: 1.1,
  }),
  ratioVerdict(
    'stretch: >= 0.95x the zod baseline, by CPU per call',
    cpu.valid.project10,
    cpu.valid.baselineZod,
    { at: '<=', bound: 1 / 0.95 },
    throughputFromCpu,
  ),
];

/** The conversation targets (part 1d): ratios of rounds side by side, and the deferred calls' p99s. */
const conversationVerdicts = (conv: ConversationResults): TargetVerdict[] => {
  const verdicts: TargetVerdict[] = [];
  const of = (name: ConversationCase, metric: keyof LoadResult = 'p50Ms') => (conv[name] ?? []).map((r) => r[metric]);
  const atMost = (bound: number): Bound => ({ at: '<=', bound });
  if (conv.deferredFirstAnswerMs.length) {
    const bound = conv.answerWithinMs + 50;
    verdicts.push(
      percentileVerdict(
        `deferred call, work 5 s: first answer p99 <= answerWithinMs + 50 ms (${bound} ms)`,
        conv.deferredFirstAnswerMs,
        99,
        atMost(bound),
        p99WithInterval,
      ),
    );
  }
  if (conv.plain.length) {
    verdicts.push(
      ratioVerdict('deferred call done in time: p50 <= 1.1x a plain call', of('laterInTime'), of('plain'), atMost(1.1)),
    );
  }
  if (conv.deferredBurstMs?.length) {
    const bound = conv.answerWithinMs + 100;
    verdicts.push(
      percentileVerdict(
        `deferred call, ${BURST} at once: first answer p99 <= answerWithinMs + 100 ms (${bound} ms)`,
        conv.deferredBurstMs,
        99,
        atMost(bound),
        p99WithInterval,
      ),
    );
  }
  if (conv.writeBaseline?.length) {
    verdicts.push(
      ratioVerdict(
        'write, deduplication checked: p50 <= 1.15x the hand-written claim',
        of('write'),
        of('writeBaseline'),
        atMost(1.15),
      ),
      ratioVerdict(
        'write, deduplication checked: throughput >= 0.9x the hand-written claim',
        of('write', 'requestsPerSecond'),
        of('writeBaseline', 'requestsPerSecond'),
        { at: '>=', bound: 0.9 },
      ),
    );
  }
  if (conv.plain.length) {
    verdicts.push(
      ratioVerdict(
        'read with conversation ids: p50 <= 1.1x a plain call (nothing added)',
        of('readWithIds'),
        of('plain'),
        atMost(1.1),
      ),
    );
  }
  return verdicts;
};

/** Every target of the issue that this run has numbers for, met, missed or unsure. */
export const targetVerdicts = (results: BenchResults): TargetVerdict[] => {
  const verdicts: TargetVerdict[] = [];
  const add = (target: string, value: number, met: boolean, format = ratio) =>
    verdicts.push({ target, measured: format(value), met: Number.isFinite(value) && met });
  if (results.invocation) verdicts.push(...invocationVerdicts(results.invocation));
  if (results.invocationCpu) verdicts.push(...cpuVerdicts(results.invocationCpu));
  if (results.conversations) verdicts.push(...conversationVerdicts(results.conversations));
  if (results.accounts) {
    const acc = results.accounts;
    verdicts.push(
      ratioVerdict(
        `a call through the ${acc.accounts}th account: p50 <= 1.05x a single-account Worker`,
        acc.lastOf500.map((r) => r.p50Ms),
        acc.single.map((r) => r.p50Ms),
        { at: '<=', bound: 1.05 },
      ),
    );
    verdicts.push({
      target: "an account's key read at most once per isolate and minute",
      measured: `${acc.storeReads} reads in ${acc.minutes} min`,
      met: acc.storeReads <= acc.minutes,
    });
  }
  if (results.approval) {
    const approval = results.approval;
    verdicts.push(
      ratioVerdict(
        'approval declared, below its threshold: p50 <= 1.05x the same write without it',
        approval.belowThreshold.map((r) => r.p50Ms),
        approval.withoutApproval.map((r) => r.p50Ms),
        { at: '<=', bound: 1.05 },
      ),
      percentileVerdict(
        'the ask reaches the team within 1 s of the call (p99, local)',
        approval.askSentMs,
        99,
        { at: '<=', bound: 1_000 },
        p99WithInterval,
      ),
    );
  }
  const project = results.size?.find((s) => s.worker === 'project');
  const bare = results.size?.find((s) => s.worker === 'bare zod');
  if (project && bare) {
    const kib = (project.gzipBytes - bare.gzipBytes) / KIB;
    add('framework share <= 10 KiB gzip', kib, kib <= 10, (v) => `${v.toFixed(1)} KiB`);
    const differences = pairedDifferences(project.startupMs, bare.startupMs);
    verdicts.push(
      judge(
        'framework share <= 2 ms start-up CPU',
        median(differences),
        quantileInterval(differences, 0.5, CONFIDENCE),
        { at: '<=', bound: 2 },
        (v, i) =>
          // "to", not "-": a difference's interval may start below zero.
          `${v.toFixed(1)} ms (${bounded(i.low, (x) => x.toFixed(1))} to ${bounded(i.high, (x) => x.toFixed(1))} ms)`,
      ),
    );
  }
  if (Array.isArray(results.sync)) {
    const noop = results.sync.find((s) => s.scenario === 'no-op rerun');
    const changed = results.sync.find((s) => s.scenario === '10 changed');
    const pages = Math.ceil(SYNC_FUNCTIONS / SYNC_PAGE_SIZE);
    if (noop) {
      verdicts.push({
        target: `no-op sync: zero writes, only the ${pages} list pages`,
        measured: `${noop.writes} writes, ${noop.reads} reads`,
        met: noop.writes === 0 && noop.reads === pages,
      });
    }
    if (changed) {
      verdicts.push({
        target: '10 changed: exactly 10 writes',
        measured: `${changed.writes} writes`,
        met: changed.writes === 10,
      });
    }
  }
  if (results.syncAccounts) verdicts.push(...syncAccountsVerdicts(results.syncAccounts));
  if (results.lint) {
    verdicts.push({
      target: `offline check of ${results.lint.functions} functions < ${LINT_TARGET_MS / 1000} s`,
      measured: `${Math.round(results.lint.medianMs)} ms (max ${Math.round(results.lint.maxMs)} ms)`,
      met: results.lint.maxMs < LINT_TARGET_MS,
    });
  }
  if (results.stats) verdicts.push(statsVerdict(results.stats));
  return verdicts;
};

/** The verdicts as a table. */
export const targetsTable = (verdicts: TargetVerdict[]): Table => ({
  title: 'Targets',
  columns: ['target', 'measured', 'met'],
  rows: verdicts.map((v) => [v.target, v.measured, verdictText(v)]),
});

/** Every table of a run, in the order they run. */
export const allTables = (results: BenchResults): Table[] => [
  ...(results.invocation ? [invocationTable(results.invocation, results.settings)] : []),
  ...(results.invocationCpu ? [cpuTable(results.invocationCpu, results.settings)] : []),
  ...(results.events ? [eventsTable(results.events, results.settings)] : []),
  ...(results.conversations ? [conversationsTable(results.conversations)] : []),
  ...(results.accounts ? [accountsTable(results.accounts)] : []),
  ...(results.approval ? [approvalTable(results.approval)] : []),
  ...(results.size ? [sizeTable(results.size)] : []),
  ...(results.sync ? [syncTable(results.sync)] : []),
  ...(results.syncAccounts ? [syncAccountsTable(results.syncAccounts)] : []),
  ...(results.memory ? [memoryTable(results.memory)] : []),
  ...(results.lint ? [lintTable(results.lint)] : []),
  ...(results.stats ? [statsTable(results.stats)] : []),
  targetsTable(targetVerdicts(results)),
];

/** A measure without a target, shown beside the targets for what it costs. */
const informational = (results: BenchResults): Cell[][] => {
  const rows: Cell[][] = [];
  const inv = results.invocation;
  if (inv) {
    rows.push([
      'signed call: req/s x an unsigned call on the same Worker',
      ratio(paired(inv, 'project-signing/signed', 'project-signing/unsigned', 'requestsPerSecond')),
      '-',
    ]);
  }
  const events = results.events;
  if (events) {
    const p50 = median(events.delivery.map((r) => r.p50Ms));
    const versus = pairedRatio(
      events.delivery.map((r) => r.requestsPerSecond),
      events.call.map((r) => r.requestsPerSecond),
    );
    rows.push([
      'event delivery acknowledged (202 once queued)',
      `p50 ${text(p50)} ms; ${ratio(versus)} a function call's req/s`,
      '-',
    ]);
  }
  if (results.conversations) {
    const conv = results.conversations;
    rows.push([
      'deferred calls: follow-ups received',
      `${conv.followUps} for ${conv.deferredFirstAnswerMs.length + (conv.deferredBurstMs?.length ?? 0)} calls`,
      '-',
    ]);
    if (conv.ledgerFloor?.length) {
      rows.push([
        'floor under any write check: a read with one Durable Object round trip, nothing written, p50 x a plain call',
        ratio(conversationRatios(conv).ledgerFloor),
        '-',
      ]);
    }
  }
  const size = results.size ?? [];
  const project = size.find((s) => s.worker === 'project');
  for (const feature of size.filter((s) => s.worker.startsWith(FEATURE_PREFIX))) {
    if (!project) break;
    const kib = (feature.gzipBytes - project.gzipBytes) / KIB;
    const ms = pairedDifference(feature.startupMs, project.startupMs);
    rows.push([
      `${feature.worker.slice(FEATURE_PREFIX.length)}: cost when turned on`,
      `${signed(kib)} KiB gzip, ${signed(ms)} ms start-up CPU`,
      '-',
    ]);
  }
  const many = results.memory?.at(-1);
  if (many) {
    rows.push([
      `heap per function (${many.count.toLocaleString('en')} functions)`,
      `${text(many.definitionBytes / KIB)} KiB defined, ${text(many.registeredBytes / KIB)} KiB registered and translated`,
      '-',
    ]);
  }
  return rows;
};

/**
 * The one results table of docs/performance.md: every target with this run's measure and verdict,
 * then what the optional features and other paths cost, which have no target.
 * @example renderMarkdown(resultsTable(results))
 */
export const resultsTable = (results: BenchResults): Table => ({
  title: 'Results',
  columns: ['measure', 'result', 'target met'],
  rows: [
    ...targetVerdicts(results).map((v): Cell[] => [v.target, v.measured, verdictText(v)]),
    ...informational(results),
  ],
  notes: [
    'Ratios compare Workers measured side by side in this run (medians of paired rounds or batches); in brackets the interval that holds the median (or the p99) with at least 95% confidence, from the order statistics of the pairs (or samples); "?": too few for that side; "unsure": the interval straddles the target (more pairs: --repeat); "-": no target.',
  ],
});

/**
 * The line above the results: when, at which commit, on what.
 * @example measuredLine(results, false) // 'Measured 2026-11-22T07:53:39Z at commit 44e42ba on 2 x AMD EPYC, Node v24.21.0, workerd V8 flags --min-semi-space-size=16, local storage in memory (/dev/shm).'
 */
export const measuredLine = (results: BenchResults, quick: boolean): string => {
  const { date, commit, cpus, cpuModel, node, v8Flags, storage } = results.machine;
  const at = commit ? ` at commit ${commit}` : '';
  const flags = v8Flags ? `, workerd V8 flags ${v8Flags}` : '';
  const memory = storage ? `, local storage in memory (${storage})` : '';
  const smoke = quick ? ' (--quick: a smoke run, too noisy to quote)' : '';
  return `Measured ${date}${at} on ${cpus} x ${cpuModel}, Node ${node}${flags}${memory}${smoke}.`;
};
