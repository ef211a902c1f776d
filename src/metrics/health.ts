// The FunctionHealth Durable Object (wrangler.toml binds it as FUNCTION_HEALTH; one instance,
// "health"): per-minute figures of every account's functions, added up from each isolate's
// flushes, and the open incidents. The cron asks it which messages are due (docs/observability.md
// "Alerts"); it marks each as in flight before the Worker sends it, so a send cut off by a crash is
// never repeated blindly. It holds counts and codes only: no arguments, contacts or texts.
import { DurableObject } from 'cloudflare:workers';
import { createLogger } from '../log.ts';
import type { Bucket } from './buckets.ts';
import { minuteOf } from './buckets.ts';
import {
  advance,
  type Incident,
  type Notice,
  SEND_LEASE_MS,
  type SendOutcome,
  sendable,
  settled,
} from './incidents.ts';
import { windowFigures } from './queries.ts';
import { cleared, fires, RULES } from './rules.ts';
import { type AlertConfig, MAX_WINDOW_MINUTES, thresholdsFor } from './thresholds.ts';

/** The instance every Worker writes to and the cron reads. */
export const HEALTH_INSTANCE = 'health';
/** Minutes of figures kept: the longest window, and an hour more. */
const KEEP_MINUTES = MAX_WINDOW_MINUTES + 60;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS buckets (minute INTEGER NOT NULL, account TEXT NOT NULL, function TEXT NOT NULL,
    kind TEXT NOT NULL, calls INTEGER NOT NULL, ok INTEGER NOT NULL, refused INTEGER NOT NULL, errors INTEGER NOT NULL,
    timeouts INTEGER NOT NULL, deferred_failures INTEGER NOT NULL, approval_expiries INTEGER NOT NULL,
    PRIMARY KEY (minute, account, function, kind)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS codes (minute INTEGER NOT NULL, account TEXT NOT NULL, function TEXT NOT NULL,
    code TEXT NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (minute, account, function, code)) WITHOUT ROWID`,
  `CREATE TABLE IF NOT EXISTS incidents (account TEXT NOT NULL, function TEXT NOT NULL, rule TEXT NOT NULL,
    body TEXT NOT NULL, PRIMARY KEY (account, function, rule)) WITHOUT ROWID`,
];

const incidentKey = (i: Pick<Incident, 'account' | 'function' | 'rule'>) =>
  JSON.stringify([i.account, i.function, i.rule]);

/** The figures and incidents of every account's functions. */
export class FunctionHealth extends DurableObject {
  private prunedAt = 0;

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    super(ctx, env);
    for (const statement of SCHEMA) ctx.storage.sql.exec(statement);
  }

  /** Adds an isolate's buckets to the stored ones; prunes figures older than two hours once a minute. */
  add(buckets: Bucket[]): void {
    const sql = this.ctx.storage.sql;
    for (const b of buckets) {
      sql.exec(
        `INSERT INTO buckets VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET calls = calls + excluded.calls,
          ok = ok + excluded.ok, refused = refused + excluded.refused, errors = errors + excluded.errors,
          timeouts = timeouts + excluded.timeouts, deferred_failures = deferred_failures + excluded.deferred_failures,
          approval_expiries = approval_expiries + excluded.approval_expiries`,
        b.minute,
        b.account,
        b.function,
        b.kind,
        b.calls,
        b.ok,
        b.refused,
        b.errors,
        b.timeouts,
        b.deferredFailures,
        b.approvalExpiries,
      );
      for (const [code, n] of Object.entries(b.codes)) {
        sql.exec(
          'INSERT INTO codes VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET n = n + excluded.n',
          b.minute,
          b.account,
          b.function,
          code,
          n,
        );
      }
    }
    this.prune(Date.now());
  }

  private prune(now: number): void {
    if (now - this.prunedAt < 60_000) return;
    this.prunedAt = now;
    const oldest = minuteOf(now) - KEEP_MINUTES;
    this.ctx.storage.sql.exec('DELETE FROM buckets WHERE minute < ?', oldest);
    this.ctx.storage.sql.exec('DELETE FROM codes WHERE minute < ?', oldest);
  }

  private incidents(): Map<string, Incident> {
    const rows = this.ctx.storage.sql.exec<{ body: string }>('SELECT body FROM incidents').toArray();
    const incidents = rows.map((row) => JSON.parse(row.body) as Incident);
    return new Map(incidents.map((incident) => [incidentKey(incident), incident]));
  }

  private save(incident: Incident | null, before: Incident | undefined): void {
    if (incident === null) {
      if (before)
        this.ctx.storage.sql.exec(
          'DELETE FROM incidents WHERE account = ? AND function = ? AND rule = ?',
          before.account,
          before.function,
          before.rule,
        );
      return;
    }
    if (before && JSON.stringify(before) === JSON.stringify(incident)) return;
    this.ctx.storage.sql.exec(
      'INSERT INTO incidents VALUES (?, ?, ?, ?) ON CONFLICT DO UPDATE SET body = excluded.body',
      incident.account,
      incident.function,
      incident.rule,
      JSON.stringify(incident),
    );
  }

  /**
   * One evaluation at `now`: moves every incident on from the figures of its window, and returns the
   * messages due (at most `limit`; the others stay due), each marked in flight. The caller sends
   * them and reports with `recordSends`.
   */
  evaluate(now: number, config: AlertConfig, limit: number = Number.POSITIVE_INFINITY): Notice[] {
    this.prune(now);
    const figures = windowFigures(this.ctx.storage.sql, minuteOf(now), config);
    const incidents = this.incidents();
    const log = createLogger({ component: 'alerts' });
    const keys = new Set([...incidents.keys()]);
    for (const f of figures.values()) for (const rule of RULES) keys.add(incidentKey({ ...f, rule }));
    const due: Notice[] = [];
    for (const key of keys) {
      const [account, fn, rule] = JSON.parse(key) as [string, string, Incident['rule']];
      const before = incidents.get(key);
      const t = thresholdsFor(config, account);
      const current = figures.get(JSON.stringify([account, fn]));
      let incident = advance(
        before,
        { account, function: fn, rule, now, figures: current },
        current !== undefined && fires(rule, current, t),
        cleared(rule, current, t),
      );
      // A send cut off before its outcome was recorded may have gone out: it counts as sent.
      if (incident?.notice === 'sending' && now - (incident.attemptAt ?? 0) >= SEND_LEASE_MS) {
        log.warn('alert_send_unconfirmed', { account, function: fn, rule, hint: 'counted as sent, never repeated' });
        incident = settled(incident, 'ambiguous');
      }
      if (incident && due.length < limit && sendable(incident, now)) {
        incident = { ...incident, notice: 'sending', attemptAt: now };
        due.push(noticeOf(incident, t.windowMinutes));
      }
      this.save(incident, before);
    }
    return due;
  }

  /** Records how each message `evaluate` handed out was sent, by notice id. */
  recordSends(outcomes: { id: string; outcome: SendOutcome }[]): void {
    const incidents = this.incidents();
    for (const { id, outcome } of outcomes) {
      for (const incident of incidents.values()) {
        if (incident.notice !== 'sending' || noticeIdOf(incident) !== id) continue;
        this.save(settled(incident, outcome), incident);
      }
    }
  }

  /** Every open or clearing incident (the console and the tests read them). */
  open(): Incident[] {
    return [...this.incidents().values()];
  }
}

const noticeIdOf = (i: Incident): string =>
  `${i.state === 'open' ? 'open' : 'clear'}-${i.openedAt}-${encodeURIComponent(i.account)}.${i.function}.${i.rule}`;

const noticeOf = (i: Incident, windowMinutes: number): Notice => ({
  id: noticeIdOf(i),
  kind: i.state === 'open' ? 'open' : 'clear',
  account: i.account,
  function: i.function,
  rule: i.rule,
  openedAt: i.openedAt,
  windowMinutes,
  figures: i.figures,
});
