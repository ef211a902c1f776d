// The command line of `npm run bench` and its help (docs/platform-contract.md §2).
import { parseArgs } from 'node:util';

/** How long and how often each part runs. */
export interface BenchSettings {
  /** Rounds of every socket case, each cut into slices (interleave.ts); the tables show medians. */
  rounds: number;
  /** Seconds of load per case and round. */
  seconds: number;
  warmupSeconds: number;
  /** Requests in flight (closed loop), the same for every Worker. */
  connections: number;
  /** Alternating batches per Worker of the in-isolate CPU measurement (half in each of two processes), and calls per batch. */
  cpuBatches: number;
  cpuCalls: number;
  /** Fresh workerd processes of the start-up measurement. */
  startupRuns: number;
  /** Isolates of each bundle per process: start-up samples per Worker = runs x copies. */
  startupCopies: number;
  /** Whether part 3 includes the rate-limit storm (about 12 s of Retry-After waits). */
  storm: boolean;
  /** Accounts of part 3b (sync of many accounts, each with and without 50 ms per answer). */
  syncAccounts: number[];
  /** How many times the side-by-side pairs are repeated (--repeat): rounds and CPU batches are multiplied by it. */
  repeat: number;
  /** Accounts of the stored-key sync rows (keys in a running Worker's account store, through its relay). */
  storeAccounts: number[];
}

/** The parts of a run, in the order they run. */
export const PARTS = [
  'size',
  'invocation',
  'conversations',
  'accounts',
  'approval',
  'metrics',
  'memory',
  'sync',
  'sync-store',
  'lint',
  'stats',
] as const;
export type Part = (typeof PARTS)[number];

/** The pieces of a part that `--only <part>.<piece>` runs alone (a part named whole runs all of them). */
export const PIECES: Partial<Record<Part, readonly string[]>> = {
  invocation: ['sockets', 'cpu', 'events'],
  conversations: ['load', 'deferred'],
};

export interface BenchArgs {
  help: boolean;
  /** The parts to run (--only); all by default. */
  parts: Part[];
  /** The pieces of a part that --only named alone (`invocation.cpu`); a part absent here runs whole. */
  pieces: Partial<Record<Part, string[]>>;
  json: boolean;
  markdown: boolean;
  quick: boolean;
  settings: BenchSettings;
}

export const HELP = `Usage: npm run --silent bench -- [--json | --markdown] [--quick] [--repeat <n>] [--only <part>[,<part>]]

Measures the project against baselines run on this machine in this run (ratios, not absolute
speeds): invocation through the project's Worker and a hand-written Worker on local workerd (and
signed event deliveries against function calls), bundle size and start-up CPU against a bare zod
Worker (each optional feature on and off), sync of 200 functions against the local platform
emulator and sync of 50 and 500 accounts of 9 functions each, heap per registered function, the offline description check of 100 functions, and local npm run stats over 100,000 recorded calls. The default run takes about 15 minutes (sync of 500 accounts about 3 of them).

Options:
  --json      Print one JSON document on stdout (progress still goes to stderr).
  --markdown  Print the one results table of docs/performance.md, as Markdown to paste there.
  --quick     One short round of everything (about 1 minute): a smoke run, too noisy to quote.
  --only      Run only these parts: ${PARTS.join(', ')} (comma-separated), e.g. --only size;
              or one piece of a part: ${Object.entries(PIECES)
                .flatMap(([part, pieces]) => pieces.map((piece) => `${part}.${piece}`))
                .join(', ')}.
  --repeat    Repeat the side-by-side pairs n times (rounds and CPU batches; default 1): each ratio's
              interval narrows, so a target the default run calls "unsure" becomes met or missed.
  --store-accounts N[,N]  Accounts of the sync-store part: clients' keys in the account store of a
              running Worker, every request through its relay, 50 ms per answer (default 500;
              5000 takes about half an hour).
  -h, --help  Show this help.

(--silent keeps npm's own header off stdout, so --json output parses.)
`;

/** The default run: about 15 minutes on 2 idle cores. */
export const DEFAULT_SETTINGS: BenchSettings = {
  rounds: 6,
  seconds: 2,
  warmupSeconds: 1,
  connections: 10,
  cpuBatches: 40,
  cpuCalls: 200,
  startupRuns: 6,
  startupCopies: 4,
  storm: true,
  syncAccounts: [50, 500],
  repeat: 1,
  storeAccounts: [500],
};

/** The --quick run: one round of everything, no storm. */
export const QUICK_SETTINGS: BenchSettings = {
  rounds: 1,
  seconds: 1,
  warmupSeconds: 0.5,
  connections: 10,
  cpuBatches: 8,
  cpuCalls: 100,
  startupRuns: 1,
  startupCopies: 3,
  storm: false,
  syncAccounts: [50],
  repeat: 1,
  storeAccounts: [50],
};

/**
 * Parses the flags; throws on an unknown one.
 * @example parseBenchArgs(['--quick']).settings.rounds // 1
 */
export const parseBenchArgs = (argv: string[]): BenchArgs => {
  const { values } = parseArgs({
    args: argv,
    options: {
      help: { type: 'boolean', short: 'h', default: false },
      json: { type: 'boolean', default: false },
      markdown: { type: 'boolean', default: false },
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      repeat: { type: 'string', default: '1' },
      'store-accounts': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const repeat = Number(values.repeat);
  if (!Number.isInteger(repeat) || repeat < 1)
    throw new Error(`--repeat takes a whole number from 1; got "${values.repeat}"`);
  const { parts, pieces } = parseOnly(values.only);
  const base = values.quick ? QUICK_SETTINGS : DEFAULT_SETTINGS;
  const storeAccounts = values['store-accounts']?.split(',').map(Number);
  if (storeAccounts?.some((n) => !Number.isInteger(n) || n < 3)) {
    throw new Error(`--store-accounts takes whole numbers from 3, e.g. 500,5000; got "${values['store-accounts']}"`);
  }
  return {
    help: values.help,
    parts,
    pieces,
    json: values.json,
    markdown: values.markdown,
    quick: values.quick,
    settings: {
      ...base,
      rounds: base.rounds * repeat,
      cpuBatches: base.cpuBatches * repeat,
      repeat,
      ...(storeAccounts ? { storeAccounts } : {}),
    },
  };
};

/** `--only a,b.c`: the parts to run, and the pieces of those named by piece only. */
const parseOnly = (only: string | undefined): Pick<BenchArgs, 'parts' | 'pieces'> => {
  if (only === undefined) return { parts: [...PARTS], pieces: {} };
  const parts: Part[] = [];
  const pieces: Partial<Record<Part, string[]>> = {};
  const wrong = () =>
    new Error(`--only takes ${PARTS.join(', ')} or a piece of one (--help lists them); got "${only}"`);
  for (const name of only.split(',').map((p) => p.trim())) {
    const [part, piece] = name.split('.') as [Part, string | undefined];
    if (!(PARTS as readonly string[]).includes(part)) throw wrong();
    if (piece !== undefined && !PIECES[part]?.includes(piece)) throw wrong();
    if (!parts.includes(part)) parts.push(part);
    if (piece === undefined) pieces[part] = [...(PIECES[part] ?? [])];
    else if (!pieces[part]?.includes(piece)) pieces[part] = [...(pieces[part] ?? []), piece];
  }
  if (parts.length === 0) throw wrong();
  return { parts, pieces };
};

/**
 * Whether a run includes `piece` of `part`.
 * @example runsPiece(parseBenchArgs(['--only', 'invocation.cpu']), 'invocation', 'sockets') // false
 */
export const runsPiece = (args: Pick<BenchArgs, 'parts' | 'pieces'>, part: Part, piece: string): boolean =>
  args.parts.includes(part) && (args.pieces[part] === undefined || args.pieces[part].includes(piece));
