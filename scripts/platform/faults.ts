// Fault injection for tests, switchable per run: rate-limit storms, 5xx, dropped connections, slow
// answers, and creates whose answer is lost after they were applied.

/** Which requests a fault hits, counting only requests of the listed methods (default: all). */
export interface FaultRule {
  /** The first N requests. */
  first?: number;
  /** Every Nth request. */
  everyNth?: number;
  methods?: string[];
}

export interface FaultOptions {
  /** 429 regardless of the real limit, with this Retry-After (seconds or HTTP date; default "1"). */
  rateLimitStorm?: FaultRule & { retryAfter?: string };
  /** A 5xx (default 503) before anything is applied. */
  serverErrors?: FaultRule & { status?: number };
  /** The connection is closed before anything is applied. */
  dropConnections?: FaultRule;
  /** Every /v1/ answer waits this long first, refusals (401, 403) included: a platform far away. */
  slowMs?: number;
  /** The next `count` successful POSTs under /v1/ are applied, then the answer is lost. */
  loseCreateAnswer?: { count: number; mode?: 'drop' | '502' };
  /** Like loseCreateAnswer for any method (counting successful requests only): applied, answer lost. */
  loseAnswers?: FaultRule & { mode?: 'drop' | '502' };
  /** The next `count` event deliveries are never sent (the platform lost them). */
  dropDeliveries?: { count: number };
  /** The next `count` event deliveries are sent twice, each signed afresh (docs/platform-contract.md §7). */
  duplicateDeliveries?: { count: number };
}

/** What the injector decided for one request. */
export type FaultVerdict =
  | { kind: 'none' }
  | { kind: 'rateLimit'; retryAfter: string }
  | { kind: 'serverError'; status: number }
  | { kind: 'drop' };

const hits = (rule: FaultRule | undefined, seen: Map<FaultRule, number>, method: string): boolean => {
  if (!rule || (rule.methods && !rule.methods.includes(method))) return false;
  const count = (seen.get(rule) ?? 0) + 1;
  seen.set(rule, count);
  return (
    count <= (rule.first ?? 0) || (rule.everyNth !== undefined && rule.everyNth > 0 && count % rule.everyNth === 0)
  );
};

/**
 * Decides faults request by request; `set` replaces the faults and restarts their counts.
 * @example const faults = createFaults({ serverErrors: { first: 2, methods: ['GET'] } })
 */
/** The faults in force and their counts. */
export interface Faults {
  set(next: FaultOptions): void;
  readonly slowMs: number;
  before(method: string): FaultVerdict;
  delivery(): 'drop' | 'duplicate' | undefined;
  loseAnswer(method: string): 'drop' | '502' | undefined;
}

export const createFaults = (initial: FaultOptions = {}): Faults => {
  let faults = initial;
  let seen = new Map<FaultRule, number>();
  let lost = initial.loseCreateAnswer?.count ?? 0;
  let drops = initial.dropDeliveries?.count ?? 0;
  let duplicates = initial.duplicateDeliveries?.count ?? 0;
  return {
    set(next: FaultOptions): void {
      faults = next;
      seen = new Map();
      lost = next.loseCreateAnswer?.count ?? 0;
      drops = next.dropDeliveries?.count ?? 0;
      duplicates = next.duplicateDeliveries?.count ?? 0;
    },
    get slowMs(): number {
      return faults.slowMs ?? 0;
    },
    /** Before a request is applied. */
    before(method: string): FaultVerdict {
      if (hits(faults.dropConnections, seen, method)) return { kind: 'drop' };
      if (hits(faults.rateLimitStorm, seen, method)) {
        return { kind: 'rateLimit', retryAfter: faults.rateLimitStorm?.retryAfter ?? '1' };
      }
      if (hits(faults.serverErrors, seen, method))
        return { kind: 'serverError', status: faults.serverErrors?.status ?? 503 };
      return { kind: 'none' };
    },
    /** What happens to the next event delivery: lost, sent twice, or sent once. */
    delivery(): 'drop' | 'duplicate' | undefined {
      if (drops > 0) {
        drops--;
        return 'drop';
      }
      if (duplicates > 0) {
        duplicates--;
        return 'duplicate';
      }
      return undefined;
    },
    /** After a request was applied: whether to lose its answer, and how. */
    loseAnswer(method: string): 'drop' | '502' | undefined {
      if (method === 'POST' && lost > 0) {
        lost--;
        return faults.loseCreateAnswer?.mode ?? 'drop';
      }
      if (hits(faults.loseAnswers, seen, method)) return faults.loseAnswers?.mode ?? 'drop';
      return undefined;
    },
  };
};
