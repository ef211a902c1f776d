// wrangler.toml's environments, read the way wrangler reads them: an environment inherits neither
// vars, Durable Objects, rate limits, queues nor any other binding, so [env.staging] must list every
// binding the top level (production) has, and must not share production's stored data.

import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';

const read = (env?: string) =>
  unstable_readConfig({ config: 'wrangler.toml', ...(env ? { env } : {}) }, { hideWarnings: true });

type Item = Record<string, unknown>;
const items = (value: unknown): Item[] =>
  (Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : []) as Item[];

/** Binding names per kind of binding wrangler does not inherit. */
const bindingsOf = (config: ReturnType<typeof read>): Record<string, string[]> => {
  const names = (value: unknown) =>
    items(value)
      .map((item) => String(item.binding ?? item.name ?? item.queue ?? ''))
      .sort();
  return {
    vars: Object.keys(config.vars ?? {}).sort(),
    durable_objects: items(config.durable_objects?.bindings)
      .map((b) => `${b.name}=${b.class_name}`)
      .sort(),
    ratelimits: names(config.ratelimits),
    kv_namespaces: names(config.kv_namespaces),
    queue_producers: names(config.queues?.producers),
    queue_consumers: items(config.queues?.consumers).map(() => 'consumer'),
    r2_buckets: names(config.r2_buckets),
    d1_databases: names(config.d1_databases),
    services: names(config.services),
    workflows: names(config.workflows),
    analytics_engine_datasets: names(config.analytics_engine_datasets),
    secrets_store_secrets: names(config.secrets_store_secrets),
    ai: names(config.ai),
    browser: names(config.browser),
    version_metadata: names(config.version_metadata),
  };
};

/** Identifiers of stored data and budgets, which staging must hold apart from production. */
const storesOf = (config: ReturnType<typeof read>): string[] =>
  [
    ...items(config.kv_namespaces).map((kv) => `kv:${kv.id}`),
    ...items(config.queues?.producers).map((q) => `queue:${q.queue}`),
    ...items(config.queues?.consumers).map((q) => `queue:${q.queue}`),
    ...items(config.r2_buckets).map((r2) => `r2:${r2.bucket_name}`),
    ...items(config.d1_databases).map((d1) => `d1:${d1.database_id}`),
    ...items(config.ratelimits).map((limit) => `ratelimit:${limit.namespace_id}`),
  ].filter((id) => !id.endsWith(':undefined'));

describe('wrangler.toml environments', () => {
  const production = read();
  const staging = read('staging');

  it('gives staging every binding production has, of every kind wrangler does not inherit', () => {
    expect(bindingsOf(staging)).toEqual(bindingsOf(production));
  });

  it('gives staging the same values of its vars', () => {
    expect(staging.vars).toEqual(production.vars);
  });

  it('deploys staging as its own Worker', () => {
    expect(staging.name).not.toBe(production.name);
    expect(staging.name).toBe(`${production.name}-staging`);
  });

  it('never shares a KV namespace, queue, bucket, database or rate-limit budget with production', () => {
    const shared = storesOf(staging).filter((id) => storesOf(production).includes(id));
    expect(shared).toEqual([]);
  });

  it('keeps Workers Logs on in both', () => {
    expect(production.observability).toMatchObject({ enabled: true });
    expect(staging.observability).toMatchObject({ enabled: true });
  });

  it('keeps Workers traces on in both, sampled (docs/observability.md "Traces")', () => {
    for (const config of [production, staging]) {
      expect(config.observability?.traces).toMatchObject({ enabled: true, head_sampling_rate: 0.1 });
    }
  });

  it("keeps every call's ?key= out of Workers Logs in both: the request urls are stored without their query string", () => {
    expect(production.observability).toMatchObject({ redact_query_string: true });
    expect(staging.observability).toMatchObject({ redact_query_string: true });
  });

  it('limits OAuth registrations and owner-secret guesses to 5 a minute per address in both (src/test/mcp/trust.test.ts counts to the same 5)', () => {
    for (const config of [production, staging]) {
      const limit = items(config.ratelimits).find((item) => item.name === 'OAUTH_RATE_LIMIT');
      expect(limit).toMatchObject({ simple: { limit: 5, period: 60 } });
    }
  });
});
