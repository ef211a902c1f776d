// Which deliveries (and `once` keys) were already handled. Queues deliver at least once and the
// platform may deliver an event twice, so the consumer asks here before running a handler: one
// SQLite row per key, `running` under a lease while a handler works, `done` for the dedup window.
import { DurableObject } from 'cloudflare:workers';
import { sha256Hex } from '../keys.ts';

/** How long a handled key is remembered: a repeat within it is not run again. */
export const DEDUP_WINDOW_MS: number = 24 * 3600_000;

/** What a claim found: run it now, it was already done, or another run holds it until `retryInMs`. */
export type Claim = { verdict: 'run' } | { verdict: 'done' } | { verdict: 'busy'; retryInMs: number };

/** One memory of handled keys per shard (wrangler.toml binds it as EVENT_LEDGER). */
export class EventLedger extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, state TEXT NOT NULL, until INTEGER NOT NULL)',
    );
  }

  /** Takes `key` for a run of at most `leaseMs`, unless it is done or another run holds it. */
  async claim(key: string, leaseMs: number): Promise<Claim> {
    const now = Date.now();
    // Synchronous statements only between read and write: no other call can slip in between.
    const [row] = this.ctx.storage.sql
      .exec<{ state: string; until: number }>('SELECT state, until FROM entries WHERE key = ?', key)
      .toArray();
    if (row && row.until > now) {
      return row.state === 'done' ? { verdict: 'done' } : { verdict: 'busy', retryInMs: row.until - now };
    }
    await this.put(key, 'running', now + leaseMs);
    return { verdict: 'run' };
  }

  /** Marks `key` handled for the dedup window. */
  async complete(key: string): Promise<void> {
    await this.put(key, 'done', Date.now() + DEDUP_WINDOW_MS);
  }

  /** Gives `key` back after a failed run, so the retry can claim it at once. */
  release(key: string): void {
    this.ctx.storage.sql.exec("DELETE FROM entries WHERE key = ? AND state = 'running'", key);
  }

  override async alarm(): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM entries WHERE until <= ?', Date.now());
    const [next] = this.ctx.storage.sql
      .exec<{ until: number | null }>('SELECT MIN(until) AS until FROM entries')
      .toArray();
    if (next?.until != null) await this.ctx.storage.setAlarm(next.until);
  }

  private async put(key: string, state: 'running' | 'done', until: number): Promise<void> {
    this.ctx.storage.sql.exec(
      'INSERT INTO entries (key, state, until) VALUES (?, ?, ?) ON CONFLICT (key) DO UPDATE SET state = excluded.state, until = excluded.until',
      key,
      state,
      until,
    );
    await this.schedule(until);
  }

  private async schedule(at: number): Promise<void> {
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > at) await this.ctx.storage.setAlarm(at);
  }
}

/** How many leading hex digits of a key's hash pick its shard: 1 digit = 16 Durable Objects. */
const SHARD_DIGITS = 1;

/**
 * The ledger shard that holds `key`.
 * @example await (await ledgerFor(env.EVENT_LEDGER, key)).claim(key, 60_000)
 */
export const ledgerFor = async (
  namespace: DurableObjectNamespace<EventLedger>,
  key: string,
): Promise<DurableObjectStub<EventLedger>> =>
  namespace.getByName(`events-${(await sha256Hex(key)).slice(0, SHARD_DIGITS)}`);
