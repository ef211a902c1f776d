// agent-functions/metrics: figures of every call per account and function, and alerts when a
// client's function fails (docs/observability.md). createWorker's `metrics` option; a Worker
// without it bundles none of this.
import type { AccountEntry, AccountResolver } from '../accounts/resolve.ts';
import { type Env, isDevelopment, type WithProcess } from '../env.ts';
import { notServedHere } from '../errors.ts';
import { type CallRecord, setRecordSink } from '../record.ts';
import type { RegisteredFunction, Registry } from '../registry.ts';
import { jsonResponse } from '../respond.ts';
import type { FeatureRoute } from '../route.ts';
import { descriptionVersion } from '../version.ts';
import { runAlerts } from './alerts.ts';
import { createMetricsSink } from './sink.ts';
import { type AlertConfig, type AlertSettings, cleanSettings, DEFAULT_THRESHOLDS } from './thresholds.ts';
import { type RecordTracing, RUNTIME_TRACING, traceRecord } from './trace.ts';

export { FunctionHealth } from './health.ts';
export type { Incident, Notice, SendOutcome } from './incidents.ts';
export { noticeText, RUNBOOK } from './notice.ts';
export type { Rule, WindowFigures } from './rules.ts';
export type { MetricsBindings } from './sink.ts';
export type { AlertSettings, AlertThresholds } from './thresholds.ts';
export { DEFAULT_THRESHOLDS } from './thresholds.ts';
export type { RecordSpan, RecordTracing } from './trace.ts';
export { standardWebhookHeaders } from './webhook.ts';

/** What `callMetrics` takes. */
export interface MetricsOptions {
  /** The project's alert thresholds over the defaults (docs/observability.md "Alert settings"); `false`: figures, no alerts. */
  alerts?: AlertSettings | false;
  /** The accounts file (generated/accounts.ts): an account's own `alerts` override the project's. */
  accounts?: { list: readonly AccountEntry[] };
  /** Where each call's span is found: the runtime's (`tracing` of `cloudflare:workers`) unless given (tests give their own). */
  tracing?: RecordTracing;
}

/** The Worker's handlers the metrics option adds. */
export interface MetricsHandlers {
  /** The cron trigger's handler: one alert evaluation. */
  scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): Promise<void>;
  /** `GET /__scheduled` under npm run dev: one evaluation, as the cron runs it (docs/platform-contract.md §11). */
  routes: FeatureRoute[];
}

/**
 * Wrangler 4 answers its own scheduled path at `/cdn-cgi/local/scheduled`; the contract's
 * `/__scheduled` is served here, under npm run dev only (spelled out, so a production bundle drops
 * it: src/env.ts), and is a 404 deployed like any path the Worker does not serve.
 */
const devScheduled =
  (evaluate: (env: Env, at: number) => Promise<unknown>): FeatureRoute[1] =>
  async (request, env) => {
    if ((globalThis as WithProcess).process?.env.NODE_ENV === 'production' || !isDevelopment(env)) {
      throw notServedHere();
    }
    await evaluate(env, Date.now());
    return jsonResponse({ evaluated: true }, 200, request.requestId);
  };

/** createWorker's `metrics` option. */
export interface MetricsService {
  /**
   * Installs the record sink (each record's description version and span attributes, then its
   * figures), and answers the cron with the resolver of the Worker's accounts.
   */
  serve(accounts: AccountResolver, registry: Registry): MetricsHandlers;
}

/**
 * The description version of a record's function (src/version.ts), worked out once per function
 * and isolate from the manifest sync registers; none for an event, a name the Worker does not
 * serve, or a definition that does not translate (its calls are still counted).
 */
const versionsOf = (registry: Registry) => {
  const versions = new WeakMap<RegisteredFunction, string>();
  return (record: CallRecord): string | undefined => {
    if (record.kind === 'event' || record.function === null) return undefined;
    try {
      const fn = registry.get(record.function);
      if (!fn) return undefined;
      let version = versions.get(fn);
      if (version === undefined) {
        version = descriptionVersion(fn.manifest);
        versions.set(fn, version);
      }
      return version;
    } catch {
      return undefined;
    }
  };
};

/** The rules' settings of `options`: the project's over the defaults, and each account's own. */
export const alertConfigOf = (options: MetricsOptions): AlertConfig => {
  const project = { ...DEFAULT_THRESHOLDS, ...cleanSettings(options.alerts) };
  if (options.alerts === false) project.off = true;
  const accounts: AlertConfig['accounts'] = {};
  for (const entry of options.accounts?.list ?? []) {
    if (entry.alerts) accounts[entry.name] = cleanSettings(entry.alerts);
  }
  return { project, accounts };
};

/**
 * createWorker's `metrics` option: every record carries its function's description version, is
 * attached to the call's span when Workers traces it, is written to Workers Analytics Engine
 * (CALL_RECORDS) and is counted for the alert rules (FUNCTION_HEALTH), which the Worker's cron
 * evaluates, sending an alert to ALERTS_CONTACT_ID in the first account.
 * @example createWorker({ functions, metrics: callMetrics({ accounts, alerts: { errorRate: 0.5 } }) })
 */
export const callMetrics = (options: MetricsOptions = {}): MetricsService => {
  const config = alertConfigOf(options);
  return {
    serve: (accounts, registry) => {
      const { sink } = createMetricsSink();
      const versionOf = versionsOf(registry);
      const tracing = options.tracing ?? RUNTIME_TRACING;
      // Before the log line (src/record.ts `observe`): the version, the span (traces), the figures.
      setRecordSink((record, env, ctx) => {
        record.version ??= versionOf(record);
        traceRecord(record, tracing);
        sink(record, env, ctx);
      });
      const evaluate = (env: Env, at: number) => runAlerts(env, at, config, accounts);
      return {
        scheduled: async (controller, env) => {
          await evaluate(env, controller.scheduledTime);
        },
        routes: [['/__scheduled', devScheduled(evaluate), 'GET']],
      };
    },
  };
};
