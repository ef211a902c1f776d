// The approval requests of one account (wrangler.toml binds it as APPROVAL_DESK; one instance per
// account name), and the one place a request is decided: a decision is written here first, in one
// synchronous statement, so the link, the team's reply and the expiry can never all win. The
// workflow waiting for the decision (src/approval/workflow.ts) is only woken by its event; it reads
// the decision from here, so an event that was lost delays nothing beyond the expiry.
// Links are kept only as their SHA-256: the store never holds what opens a request. The ask (the
// customer's words) is kept only while the request waits; the row, only until KEEP_MS after its
// expiry, when the desk's alarm deletes it (docs/security.md, the retention table).
import { DurableObject } from 'cloudflare:workers';
import { TEAM_ASK_WINDOW_MS } from './budget.ts';

/** Where a request stands: waiting, decided by a person, or ended by its expiry or the call that asked. */
export type ApprovalState = 'pending' | 'approved' | 'denied' | 'expired' | 'withdrawn';

/** What the approval page and the console may show of one request: never the link or the arguments. */
export interface ApprovalView {
  id: string;
  code: string;
  name: string;
  ask: string;
  state: ApprovalState;
  createdAt: number;
  expiresAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
}

/** What `decide` found: the decision just made, the one made before, or a request that is past deciding. */
export type DecideResult =
  | { outcome: 'decided'; view: ApprovalView }
  | { outcome: 'already'; view: ApprovalView }
  | { outcome: 'expired'; view: ApprovalView }
  | { outcome: 'unknown' };

/** A request to open: what the team is asked, and the hashes of its link and page token. */
export interface OpenRequest {
  /** The request's id (its workflow instance's), when the caller chose it: an MCP task's. */
  id?: string;
  /** The conversation and call it is for (a hash): a repeat while it waits opens nothing. */
  call: string;
  name: string;
  ask: string;
  expiresAt: number;
  linkHash: string;
  pageToken: string;
  /** The most requests this account may open in TEAM_ASK_WINDOW_MS: past it, nothing is opened. */
  limit: number;
}

/** What `open` did: a new request (its id and reply code), the pending one of the same call, or nothing (the account's asks are spent for now). */
export type OpenResult =
  | { created: true; id: string; code: string }
  | { created: false; id: string; code: string }
  | { created: false; limited: true };

type Row = {
  id: string;
  code: string;
  name: string;
  ask: string;
  state: ApprovalState;
  created: number;
  expires: number;
  decided_by: string | null;
  decided_at: number | null;
};

/** How long a request's row (its state, who decided and when; no ask) is kept after its expiry. */
export const KEEP_MS: number = 7 * 24 * 3600_000;
/** Reply codes: four letters and digits, none that read alike (0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const COLUMNS = 'id, code, name, ask, state, created, expires, decided_by, decided_at';

const viewOf = (row: Row): ApprovalView => ({
  id: row.id,
  code: row.code,
  name: row.name,
  ask: row.ask,
  state: row.state,
  createdAt: row.created,
  expiresAt: row.expires,
  decidedBy: row.decided_by,
  decidedAt: row.decided_at,
});

const randomCode = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
};

/** One account's approval requests. */
export class ApprovalDesk extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS requests (id TEXT PRIMARY KEY, call TEXT NOT NULL, code TEXT NOT NULL,
        link TEXT NOT NULL UNIQUE, page TEXT NOT NULL, name TEXT NOT NULL, ask TEXT NOT NULL, state TEXT NOT NULL,
        created INTEGER NOT NULL, expires INTEGER NOT NULL, decided_by TEXT, decided_at INTEGER)`,
    );
  }

  /**
   * Opens a request, unless the same call already has one pending (then that one is answered) or
   * the account opened `request.limit` in TEAM_ASK_WINDOW_MS (then nothing is).
   */
  async open(request: OpenRequest): Promise<OpenResult> {
    const now = Date.now();
    const pending = this.pendingFor(request.call);
    if (pending) return { created: false, id: pending.id, code: pending.code };
    const [recent] = this.ctx.storage.sql
      .exec<{ n: number }>('SELECT COUNT(*) AS n FROM requests WHERE created > ?', now - TEAM_ASK_WINDOW_MS)
      .toArray();
    if ((recent?.n ?? 0) >= request.limit) return { created: false, limited: true };
    const codes = new Set(this.rows("WHERE state = 'pending'").map((row) => row.code));
    let code = randomCode();
    while (codes.has(code)) code = randomCode();
    const id = request.id ?? `approval-${crypto.randomUUID()}`;
    this.ctx.storage.sql.exec(
      "INSERT INTO requests (id, call, code, link, page, name, ask, state, created, expires) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)",
      id,
      request.call,
      code,
      request.linkHash,
      request.pageToken,
      request.name,
      request.ask,
      now,
      request.expiresAt,
    );
    await this.schedule();
    return { created: true, id, code };
  }

  /** The request of `call` still waiting, if any. */
  pendingFor(call: string): { id: string; code: string } | undefined {
    const [row] = this.rows("WHERE call = ? AND state = 'pending' AND expires > ?", call, Date.now());
    return row ? { id: row.id, code: row.code } : undefined;
  }

  /** Ends a request whose ask could not be sent: nobody can decide it any more. */
  withdraw(id: string): void {
    this.ctx.storage.sql.exec(
      "UPDATE requests SET state = 'withdrawn', decided_at = ?, ask = '' WHERE id = ? AND state = 'pending'",
      Date.now(),
      id,
    );
  }

  /** The request a link opens, with its page token, or undefined for a link this desk never made. */
  view(linkHash: string): (ApprovalView & { pageToken: string }) | undefined {
    const [row] = this.ctx.storage.sql
      .exec<Row & { page: string }>(`SELECT ${COLUMNS}, page FROM requests WHERE link = ?`, linkHash)
      .toArray();
    return row ? { ...viewOf(row), pageToken: row.page } : undefined;
  }

  /**
   * Decides the request a link (its hash) or a reply code names, once: a second decision gets the
   * first; past its expiry nothing is decided any more.
   */
  decide(by: { linkHash: string } | { code: string }, approve: boolean, decidedBy: string): DecideResult {
    const now = Date.now();
    const [row] =
      'linkHash' in by
        ? this.rows('WHERE link = ?', by.linkHash)
        : this.rows("WHERE code = ? AND state = 'pending'", by.code.toUpperCase());
    if (!row) return { outcome: 'unknown' };
    if (row.state !== 'pending') return { outcome: row.state === 'expired' ? 'expired' : 'already', view: viewOf(row) };
    if (row.expires <= now) return { outcome: 'expired', view: viewOf(row) };
    const state: ApprovalState = approve ? 'approved' : 'denied';
    this.ctx.storage.sql.exec(
      "UPDATE requests SET state = ?, decided_by = ?, decided_at = ?, ask = '' WHERE id = ?",
      state,
      decidedBy,
      now,
      row.id,
    );
    return { outcome: 'decided', view: { ...viewOf(row), ask: '', state, decidedBy, decidedAt: now } };
  }

  /** The request's final state, for its workflow once woken or timed out: still pending means expired now. */
  finalState(id: string): ApprovalView | undefined {
    this.ctx.storage.sql.exec(
      "UPDATE requests SET state = 'expired', decided_at = ?, ask = '' WHERE id = ? AND state = 'pending'",
      Date.now(),
      id,
    );
    const [row] = this.rows('WHERE id = ?', id);
    return row ? viewOf(row) : undefined;
  }

  /** The requests still waiting for a person, oldest first (the dev console lists them). */
  pending(): ApprovalView[] {
    return this.rows("WHERE state = 'pending' AND expires > ? ORDER BY created", Date.now()).map(viewOf);
  }

  /** Past its expiry a request's ask is dropped; KEEP_MS later, its row. Then the next alarm is set. */
  override async alarm(): Promise<void> {
    const now = Date.now();
    this.ctx.storage.sql.exec('DELETE FROM requests WHERE expires <= ?', now - KEEP_MS);
    this.ctx.storage.sql.exec("UPDATE requests SET ask = '' WHERE expires <= ? AND ask != ''", now);
    await this.schedule(true);
  }

  /** The alarm at the next expiry (of a request with its ask) or the next row to delete; an earlier one set stays. */
  private async schedule(replace = false): Promise<void> {
    const [next] = this.ctx.storage.sql
      .exec<{ at: number | null }>(
        "SELECT MIN(CASE WHEN ask != '' THEN expires ELSE expires + ? END) AS at FROM requests",
        KEEP_MS,
      )
      .toArray();
    const at = next?.at ?? null;
    const set = replace ? null : await this.ctx.storage.getAlarm();
    if (at === null) {
      if (replace) await this.ctx.storage.deleteAlarm();
    } else if (set === null || set > at) await this.ctx.storage.setAlarm(at);
  }

  private rows(where: string, ...bindings: unknown[]): Row[] {
    return this.ctx.storage.sql.exec<Row>(`SELECT ${COLUMNS} FROM requests ${where}`, ...bindings).toArray();
  }
}
