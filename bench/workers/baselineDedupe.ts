// Benchmark entry: the anchor of a deduplicated write, written by hand without the framework. The
// hand-written baseline (baselineWorker.ts) plus the same durable claim the framework's write path
// makes: before the handler, one round trip to the conversation's Durable Object, which reads the
// call's key and, finding nothing, writes a claim that is confirmed (stored) before the answer
// leaves the object; after the handler, the answer is stored there off the call's path
// (ctx.waitUntil). Measured beside the framework's write in the same run (bench/src/conversations.ts).
import { DurableObject } from 'cloudflare:workers';
import { type AnswerOf, type BaselineEnv, createBaselineWorker, validateByHand } from './baselineWorker.ts';
import { QUOTE_FUNCTION, quote } from './quote.ts';

/** One conversation's claims: a key per call, its answer once there is one. */
export class ClaimLedger extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS claims (key TEXT PRIMARY KEY, answer TEXT)');
  }

  /** The stored answer of `key`, or null after claiming it (the write is confirmed before this returns). */
  claim(key: string): string | null {
    const [row] = this.ctx.storage.sql
      .exec<{ answer: string | null }>('SELECT answer FROM claims WHERE key = ?', key)
      .toArray();
    if (row) return row.answer ?? 'null';
    this.ctx.storage.sql.exec('INSERT INTO claims (key, answer) VALUES (?, NULL)', key);
    return null;
  }

  /** Keeps `answer` as the answer of every repeat of `key`. */
  complete(key: string, answer: string): void {
    this.ctx.storage.sql.exec('UPDATE claims SET answer = ? WHERE key = ?', answer, key);
  }
}

type DedupeEnv = BaselineEnv & { CLAIMS?: DurableObjectNamespace<ClaimLedger> };

const encoder = new TextEncoder();
const hex = (bytes: ArrayBuffer) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

const claimed: AnswerOf = async (args, body, env, ctx) => {
  const ledgers = (env as DedupeEnv).CLAIMS;
  const conversation = typeof body.conversationId === 'string' ? body.conversationId : undefined;
  if (!ledgers || !conversation) return quote(args);
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`${QUOTE_FUNCTION}\n${JSON.stringify(args)}`));
  const key = hex(digest);
  const ledger = ledgers.getByName(conversation);
  const seen = await ledger.claim(key);
  if (seen !== null) return JSON.parse(seen) as unknown;
  const answer = quote(args);
  ctx.waitUntil(ledger.complete(key, JSON.stringify(answer)));
  return answer;
};

export default createBaselineWorker(validateByHand, claimed) satisfies ExportedHandler<DedupeEnv>;
