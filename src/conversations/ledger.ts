// The calls of one conversation that changed something, so a repeat within the window does not
// run again (docs/functions.md "Calls that repeat"). One Durable Object per conversation of an
// account (wrangler.toml binds it as CALL_LEDGER): a row per call key, `running` under a lease
// while the first call works, `done` with its answer for the window. A repeat that finds the key
// running waits here for the first call's answer. A contact's ledger (src/conversations/deferral.ts)
// also counts budgets: rows `<budget>#<n>` that expire, taken with a claim or on their own.
import { DurableObject } from 'cloudflare:workers';

/** What a claim found: run it now, the first call's answer, or still running when the wait ran out. */
export type CallClaim =
  | { verdict: 'run' }
  | { verdict: 'done'; answer: string }
  | { verdict: 'busy' }
  | { verdict: 'unknown' };

/** Budgets a claim spends one use of each (at most `limit` uses of `key` per `windowMs`), all or none. */
export interface Budgets {
  budgets: readonly { key: string; limit: number }[];
  windowMs: number;
}

/** The answer kept for a key whose run stopped without an answer (a crash): it may have happened. */
const UNKNOWN = '{"unknown":true}';

type Row = {
  state: 'running' | 'done';
  answer: string | null;
  until: number;
};

/** One conversation's memory of its writes. */
export class CallLedger extends DurableObject {
  /** Repeats waiting for a running key, woken when it completes or is released. */
  private readonly waiters = new Map<string, Set<() => void>>();
  /** When the alarm is set for (undefined: not read yet), so a completion rarely touches it. */
  private readonly alarm_: { at: number | null | undefined } = { at: undefined };

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, state TEXT NOT NULL, answer TEXT, until INTEGER NOT NULL)',
    );
  }

  /**
   * Takes `key` for a run of at most `leaseMs`, unless a call holds it or held it within its window;
   * while another run holds it, waits up to `waitMs` for that run's answer. A run whose lease ran
   * out without an answer may have done its work: its key stays taken for `windowMs`, as unknown.
   */
  async claim(key: string, leaseMs: number, waitMs: number, windowMs: number): Promise<CallClaim> {
    // Without budgets nothing is spent, so the verdict is never `spent`.
    return (await this.claimSpending(key, leaseMs, waitMs, windowMs)) as CallClaim;
  }

  /**
   * `claim`, spending one use of every budget when the key is taken, in the same step: `spent` (the
   * key not taken) when any budget has none left. `release` gives the uses back with the key.
   */
  async claimSpending(
    key: string,
    leaseMs: number,
    waitMs: number,
    windowMs: number,
    spend?: Budgets,
  ): Promise<CallClaim | { verdict: 'spent' }> {
    const giveUp = Date.now() + waitMs;
    for (;;) {
      const now = Date.now();
      // Synchronous statements only between read and write: no other call can slip in between.
      const [row] = this.ctx.storage.sql
        .exec<Row>('SELECT state, answer, until FROM calls WHERE key = ?', key)
        .toArray() as Row[];
      if (row?.state === 'running' && row.until <= now) {
        this.put(key, 'done', UNKNOWN, now + windowMs);
        await this.schedule();
        continue;
      }
      if (!row || row.until <= now) {
        const slots = spend ? this.freeSlots(spend.budgets, now) : [];
        if (!slots) return { verdict: 'spent' };
        for (const slot of slots) this.put(slot, 'done', null, now + (spend?.windowMs ?? 0));
        // A running key keeps the uses it spent, so its release gives them back.
        this.put(key, 'running', slots.length > 0 ? JSON.stringify(slots) : null, now + leaseMs);
        if (slots.length > 0) await this.schedule();
        return { verdict: 'run' };
      }
      if (row.state === 'done') {
        return row.answer === UNKNOWN ? { verdict: 'unknown' } : { verdict: 'done', answer: row.answer ?? 'null' };
      }
      const waitFor = Math.min(giveUp, row.until) - now;
      if (waitFor <= 0) return { verdict: 'busy' };
      await this.wake(key, waitFor);
      if (Date.now() >= giveUp && this.stateOf(key) === 'running') return { verdict: 'busy' };
    }
  }

  /** Keeps `answer` as the answer of every repeat of `key` for `windowMs`. */
  async complete(key: string, answer: string, windowMs: number): Promise<void> {
    this.put(key, 'done', answer, Date.now() + windowMs);
    this.notify(key);
    await this.schedule();
  }

  /**
   * Gives `key` back after a run that changed nothing, so a repeat runs at once, with the budget
   * uses its claim spent.
   */
  release(key: string): void {
    const [row] = this.ctx.storage.sql
      .exec<{ answer: string | null }>("SELECT answer FROM calls WHERE key = ? AND state = 'running'", key)
      .toArray();
    const spent = row?.answer ? (JSON.parse(row.answer) as string[]) : [];
    if (row) for (const slot of [key, ...spent]) this.ctx.storage.sql.exec('DELETE FROM calls WHERE key = ?', slot);
    this.notify(key);
  }

  /** One free use of every budget (`<key>#<n>`), or undefined when any has none. Synchronous: nothing slips in. */
  private freeSlots(budgets: Budgets['budgets'], now: number): string[] | undefined {
    const slots: string[] = [];
    for (const { key, limit } of budgets) {
      let free: string | undefined;
      for (let n = 0; n < limit && free === undefined; n++) {
        const [row] = this.ctx.storage.sql
          .exec<{ until: number }>('SELECT until FROM calls WHERE key = ?', `${key}#${n}`)
          .toArray();
        if (!row || row.until <= now) free = `${key}#${n}`;
      }
      if (free === undefined) return undefined;
      slots.push(free);
    }
    return slots;
  }

  override async alarm(): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM calls WHERE until <= ?', Date.now());
    this.alarm_.at = null;
    await this.schedule();
  }

  private stateOf(key: string): string | undefined {
    return this.ctx.storage.sql.exec<{ state: string }>('SELECT state FROM calls WHERE key = ?', key).toArray()[0]
      ?.state;
  }

  private put(key: string, state: Row['state'], answer: string | null, until: number): void {
    this.ctx.storage.sql.exec(
      'INSERT INTO calls (key, state, answer, until) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET state = excluded.state, answer = excluded.answer, until = excluded.until',
      key,
      state,
      answer,
      until,
    );
  }

  private wake(key: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const set = this.waiters.get(key) ?? new Set<() => void>();
      this.waiters.set(key, set);
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });
  }

  private notify(key: string): void {
    for (const done of [...(this.waiters.get(key) ?? [])]) done();
  }

  /** An alarm at the earliest expiry; one already set stays (when it fires, it sets the next). */
  private async schedule(): Promise<void> {
    const set = this.alarm_.at === undefined ? await this.ctx.storage.getAlarm() : this.alarm_.at;
    this.alarm_.at = set;
    if (set !== null && set > Date.now()) return;
    const [next] = this.ctx.storage.sql
      .exec<{ until: number | null }>('SELECT MIN(until) AS until FROM calls')
      .toArray();
    if (next?.until == null) return;
    this.alarm_.at = next.until;
    await this.ctx.storage.setAlarm(next.until);
  }
}
