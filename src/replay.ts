// Refuses a second use of one signed request. A signature is only valid for the tolerance window,
// so a captured request could be replayed within it; one memory shared by every isolate (a Durable
// Object per shard) remembers each accepted signature until its timestamp has left the window.
import { DurableObject } from 'cloudflare:workers';
import { SIGNATURE_TOLERANCE_SECONDS } from './platform/signature.ts';

/** How many leading hex digits of a signature pick its shard: 1 digit = 16 Durable Objects. */
const SHARD_DIGITS = 1;

/**
 * The seen-signature store: one SQLite row per accepted signature, deleted by an alarm once its
 * timestamp is too old to verify anyway.
 */
export class ReplayGuard extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS seen (signature TEXT PRIMARY KEY, expires INTEGER NOT NULL)');
  }

  /** True the first time `signature` is claimed, false ever after (until `expires`, in ms). */
  async claim(signature: string, expires: number): Promise<boolean> {
    // One synchronous statement: no other request can slip in between the check and the write.
    const inserted = this.ctx.storage.sql
      .exec(
        'INSERT INTO seen (signature, expires) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING 1',
        signature,
        expires,
      )
      .toArray();
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > expires) await this.ctx.storage.setAlarm(expires);
    return inserted.length === 1;
  }

  override async alarm(): Promise<void> {
    this.ctx.storage.sql.exec('DELETE FROM seen WHERE expires <= ?', Date.now());
    const [next] = this.ctx.storage.sql.exec<{ expires: number }>('SELECT MIN(expires) AS expires FROM seen').toArray();
    if (next?.expires != null) await this.ctx.storage.setAlarm(next.expires);
  }
}

/**
 * Whether a verified signature is used for the first time; a replay answers false.
 * @example if (!(await isFirstUse(env.REPLAY_GUARD, signature, timestamp))) throw replayed()
 */
export const isFirstUse = async (
  guard: DurableObjectNamespace<ReplayGuard>,
  signature: string,
  timestamp: string,
): Promise<boolean> => {
  // The verifier accepts upper- and lower-case hex: both spell one signature.
  const hex = signature.trim().slice('v1='.length).toLowerCase();
  const stub = guard.getByName(`signatures-${hex.slice(0, SHARD_DIGITS)}`);
  return stub.claim(hex, (Number(timestamp) + SIGNATURE_TOLERANCE_SECONDS) * 1000);
};
