// Throws thousands of hostile requests at the Worker (fixed seed, so every run is the same run) and
// checks every answer against the invariants in audit.ts. Test-only functions go through
// createWorker with an env we choose; the shipped functions go through the real entry.
// "Shipped" is whatever the entry serves (#shipped-functions): the framework's fixture functions in
// its own suite, a project's functions/ in the end-to-end suite (e2e/vitest.config.ts).

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functions as shipped } from '#shipped-functions';
import { withApproval } from '../../approval/feature.ts';
import { misspelledParameter } from '../../args.ts';
import { conversationFeatures } from '../../conversations/features.ts';
import { type AnyFunctionDefinition, DEFAULT_BODY_LIMIT } from '../../define.ts';
import { signWebhook } from '../../platform/protocol/signature.ts';
import { rateLimits } from '../../ratelimit.ts';
import { createRegistry } from '../../registry.ts';
import { inputJsonSchema } from '../../schema/describe.ts';
import { captureLogs, guarded, logLines, prototypeSnapshot, type Run, runs, type Sent, violations } from './audit.ts';
import {
  anyString,
  type Credential,
  contentType,
  credential,
  credentialIsValid,
  DANGEROUS_KEYS,
  deepNesting,
  type Encoding,
  encode,
  encodings,
  envelopeKey,
  hostileNumberText,
  invalidUtf8,
  method,
  noiseHeaders,
  noiseQuery,
  objectOf,
  POLLUTING_MEMBERS,
  signature,
  sizeAroundLimit,
} from './fuzz-arbitraries.ts';
import { TEST_FUNCTIONS, type TestFunctionName, VALID_EXAMPLES } from './fuzz-functions.ts';
import { entry, FUNCTIONS_SECRET, keyOf, nowSeconds, ORIGIN, SIGNING_SECRET, workerOf } from './harness.ts';

/** Fixed, so a failure is reproducible; change it only to explore, never to make a failure go away. */
const SEED = 20_261_117;
/** Generous: a property takes 1-4 s alone, more on a busy 2-core machine. */
const FUZZ_TIMEOUT_MS = 60_000;
const FAKE_PLATFORM_API_KEY = 'pk_live_fuzz_9d2f6c1e0b7a';

const testNames = Object.keys(TEST_FUNCTIONS) as TestFunctionName[];
const shippedNames = Object.keys(shipped);
const testRegistry = createRegistry(TEST_FUNCTIONS, undefined, rateLimits);
// The entry serves its functions with withApproval over the conversations feature (worker.ts): the
// same checks here, so a function that declares an approval translates as it does there.
const shippedRegistry = createRegistry(
  shipped,
  withApproval(conversationFeatures, { teamContact: () => undefined }).check,
  rateLimits,
);
/**
 * A shipped function's arguments from the examples its manifest shows the model: with them the
 * fuzzer reaches handlers whose schemas its generator cannot satisfy (patterns, like a booking
 * reference), whichever functions the project keeps.
 */
const manifestExample = (name: string): Record<string, unknown> =>
  Object.fromEntries(
    (shippedRegistry.get(name)?.parameters ?? []).flatMap((p) =>
      p.example === undefined ? [] : [[p.name, p.example]],
    ),
  );
/**
 * The time limit of the slow-body run: short, so a trickling body is late within a test (each of its
 * stalled bodies waits this long). The chunk pauses scale with it (SLOW_BODY_MAX_PAUSE_MS).
 */
const QUICK_LIMIT_MS = 60;
/**
 * The longest pause between a slow body's chunks: under a third of QUICK_LIMIT_MS, so a body is
 * in time or late by how many chunks it has, and one pause a busy isolate lets through early still
 * leaves a "certainly late" body (over twice the limit) more than the limit behind.
 */
const SLOW_BODY_MAX_PAUSE_MS = 16;
const quickFetch = workerOf(
  Object.fromEntries(
    testNames.map((name) => [
      name,
      guarded(name, { ...(TEST_FUNCTIONS[name] as AnyFunctionDefinition), timeoutMs: QUICK_LIMIT_MS }),
    ]),
  ),
);
const testFetch = workerOf(Object.fromEntries(testNames.map((name) => [name, guarded(name, TEST_FUNCTIONS[name])])), {
  PLATFORM_API_KEY: FAKE_PLATFORM_API_KEY,
});

const stats = {
  requests: 0,
  byStatus: new Map<number, number>(),
  shippedRuns: 0,
  testRuns: 0,
  signedDuplicates: 0,
  slowBodies: 0,
  probes: 0,
};
let secrets: string[] = [];
let snapshot: Record<string, string[]> = {};
let stopCapture: () => void = () => {};
const originalHandlers = new Map<string, (typeof shipped)[string]['handler']>();

beforeAll(async () => {
  snapshot = prototypeSnapshot();
  const keys = await Promise.all([...testNames, ...shippedNames].map((name) => keyOf(name)));
  secrets = [FUNCTIONS_SECRET, SIGNING_SECRET, FAKE_PLATFORM_API_KEY, ...keys];
  // The entry's registry holds these very definition objects: wrap their handlers in place.
  for (const name of shippedNames) {
    const definition = shipped[name];
    if (!definition) continue;
    originalHandlers.set(name, definition.handler);
    definition.handler = guarded(name, { ...definition }).handler;
  }
  stopCapture = captureLogs();
});

afterAll(() => {
  stopCapture();
  for (const [name, handler] of originalHandlers) if (shipped[name]) shipped[name].handler = handler;
});

// The fetch spec upper-cases these six; any other method keeps its spelling.
const NORMALISED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const normalise = (m: string) => (NORMALISED.has(m.toUpperCase()) ? m.toUpperCase() : m);
const isInvocationMethod = (m: string) => m === 'GET' || m === 'POST';

const credentialParts = async (
  name: string,
  c: Credential,
): Promise<{ query: string; headers: Record<string, string> }> => {
  const key = await keyOf(name);
  switch (c) {
    case 'query':
      return { query: `key=${key}`, headers: {} };
    case 'header':
      return { query: '', headers: { 'x-function-key': key } };
    case 'bearer':
      return { query: '', headers: { authorization: `Bearer ${key}` } };
    case 'wrong':
      return { query: `key=${'A'.repeat(43)}`, headers: {} };
    case 'other-function':
      return { query: `key=${await keyOf(`${name}_other`)}`, headers: {} };
    case 'padded':
      return { query: `key=${key}=`, headers: {} };
    case 'truncated':
      return { query: `key=${key.slice(0, -1)}`, headers: {} };
    case 'lowercase':
      return { query: `key=${key.toLowerCase()}`, headers: {} };
    case 'old-secret':
      return { query: `key=${await keyOf(name, `${FUNCTIONS_SECRET}-old`)}`, headers: {} };
    default:
      return { query: '', headers: {} };
  }
};

const signatureParts = async (kind: string, body: string): Promise<Record<string, string>> => {
  const now = nowSeconds();
  const sign = async (secret: string, at: number) => ({
    'x-webhook-timestamp': String(at),
    'x-webhook-signature': await signWebhook(secret, String(at), body),
  });
  switch (kind) {
    case 'valid':
      return sign(SIGNING_SECRET, now);
    case 'wrong-secret':
      return sign('not-the-signing-secret', now);
    case 'stale':
      return sign(SIGNING_SECRET, now - 3600);
    case 'future':
      return sign(SIGNING_SECRET, now + 3600);
    case 'garbage':
      return { 'x-webhook-timestamp': String(now), 'x-webhook-signature': 'v1=nothex' };
    case 'only-timestamp':
      return { 'x-webhook-timestamp': String(now) };
    default:
      return {};
  }
};

const FORBIDDEN_NOISE = /^(?:authorization|x-function-key|content-type|content-length|x-webhook-.*|host)$/;

/** String values inside a JSON value (not its keys: parameter names are no secret), for the log audit. */
const leaves = (value: unknown, out: string[] = []): string[] => {
  const stack = [value];
  while (stack.length > 0 && out.length < 200) {
    const item = stack.pop();
    if (typeof item === 'string') out.push(item);
    else if (typeof item === 'object' && item !== null) stack.push(...Object.values(item));
  }
  return out;
};

/** Arguments as a query string: arrays as repeated parameters, objects as JSON. */
const toQuery = (args: Record<string, unknown>): [string, string][] =>
  Object.entries(args).flatMap(([key, value]) =>
    (Array.isArray(value) ? value : [value]).map((v): [string, string] => [
      key,
      typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v),
    ]),
  );

const toRequest = (sent: Sent): Request =>
  new Request(`${ORIGIN}${sent.path}`, {
    method: sent.method,
    headers: sent.headers,
    ...(sent.method === 'GET' || sent.method === 'HEAD' || sent.body === undefined ? {} : { body: sent.body }),
  });

/** Sends one request, audits its answer and fails with every broken invariant. */
const exercise = async (sent: Sent, target: 'test' | 'quick' | 'entry', request: Request = toRequest(sent)) => {
  const runsBefore = runs.length;
  const linesBefore = logLines.length;
  const response = await (target === 'test'
    ? testFetch(request)
    : target === 'quick'
      ? quickFetch(request)
      : entry.fetch(request));
  const ran: Run[] = runs.slice(runsBefore);
  stats.requests++;
  stats.byStatus.set(response.status, (stats.byStatus.get(response.status) ?? 0) + 1);
  if (target !== 'entry') stats.testRuns += ran.length;
  else stats.shippedRuns += ran.length;
  const found = await violations({
    sent,
    response,
    ran,
    lines: logLines.slice(linesBefore),
    secrets,
    loggingFunctions: new Set(['fuzz_logged']),
    snapshot,
  });
  if (found.length > 0) {
    const body = typeof sent.body === 'string' ? sent.body.slice(0, 300) : `${sent.body?.byteLength ?? 0} bytes`;
    throw new Error(`${found.join('; ')}\n  for ${sent.method} ${sent.path.slice(0, 200)} ${body}`);
  }
};

const schemas = new Map<string, ReturnType<typeof inputJsonSchema>>();
const schemaOf = (name: string) => {
  let schema = schemas.get(name);
  if (!schema) {
    const definition = (TEST_FUNCTIONS as Record<string, (typeof shipped)[string]>)[name] ?? shipped[name];
    schema = inputJsonSchema(name, definition?.parameters ?? TEST_FUNCTIONS.fuzz_record.parameters);
    schemas.set(name, schema);
  }
  return schema;
};

const GET_FRIENDLY = new Set<string>(['fuzz_record', 'fuzz_loose', 'fuzz_strict', 'fuzz_logged']);

describe('the Worker under fuzzing (fast-check, fixed seed)', () => {
  it(
    'keeps every invariant for well-formed and subtly wrong calls of the test functions',
    async () => {
      const spec = fc.constantFrom(...testNames).chain((fn) =>
        fc.record({
          fn: fc.constant(fn),
          example: fc.boolean(),
          args: objectOf(schemaOf(fn)),
          mutation: fc.option(
            fc.tuple(
              fc.constantFrom('drop', 'replace', 'stringify', 'extra'),
              anyString,
              fc.jsonValue({ maxDepth: 2 }),
            ),
            { freq: 3 },
          ),
          encoding: fc.constantFrom(...encodings),
          envelope: envelopeKey,
          method,
          contentType,
          credential,
          signature,
          headers: noiseHeaders,
          query: noiseQuery,
        }),
      );
      await fc.assert(
        fc.asyncProperty(spec, async (s) => {
          const args = structuredClone(s.example ? VALID_EXAMPLES[s.fn] : s.args);
          if (s.mutation) {
            const [kind, key, value] = s.mutation;
            const target = Object.keys(args)[0] ?? key;
            if (kind === 'drop') delete args[target];
            else if (kind === 'replace') args[target] = value;
            else if (kind === 'stringify') args[target] = JSON.stringify(args[target] ?? null);
            else Object.defineProperty(args, key, { value, enumerable: true, writable: true, configurable: true });
          }
          const m = normalise(s.method);
          const body = m === 'GET' ? '' : encode(args, s.encoding as Encoding, s.envelope);
          const cred = await credentialParts(s.fn, s.credential);
          const noise = Object.fromEntries(Object.entries(s.headers).filter(([k]) => !FORBIDDEN_NOISE.test(k)));
          const query = new URLSearchParams(m === 'GET' ? toQuery(args) : []);
          for (const [k, v] of s.query) query.append(k, v);
          const path = `/functions/${s.fn}?${[query.toString(), cred.query].filter(Boolean).join('&')}`;
          const headers = {
            ...noise,
            ...(s.contentType !== undefined ? { 'content-type': s.contentType } : {}),
            ...cred.headers,
            ...(await signatureParts(s.signature, body)),
          };
          // The oracle: what the contract prescribes, where the request makes it certain.
          // No replay store: a valid signature is served every time it is presented, and arguments in
          // the query string are vouched for by the key, as in an unsigned call (docs/platform-contract.md §4).
          const clean = s.example && !s.mutation;
          const infos = testRegistry.get(s.fn)?.parameters ?? [];
          const noiseFree = !s.query.some(
            ([k]) =>
              Object.hasOwn(args, k) ||
              ['arguments', 'args', 'parameters', 'input'].includes(k) ||
              misspelledParameter(k, infos, args) !== undefined,
          );
          let expected: number | undefined;
          if (!credentialIsValid(s.credential)) expected = 401;
          else if (!isInvocationMethod(m)) expected = 405;
          else if (s.signature !== 'none' && s.signature !== 'valid') expected = 401;
          else if (clean && s.fn === 'fuzz_throws') expected = 500;
          // A JSON object is read as JSON whatever the declared content type.
          else if (clean && m === 'POST') expected = s.fn === 'fuzz_strict' && s.encoding === 'polluting' ? 422 : 200;
          else if (
            clean &&
            m === 'GET' &&
            GET_FRIENDLY.has(s.fn) &&
            noiseFree &&
            (s.fn !== 'fuzz_strict' || s.query.length === 0)
          )
            expected = 200;
          const sent: Sent = {
            fn: s.fn,
            method: m,
            path,
            headers,
            body,
            ...(expected !== undefined ? { expected } : {}),
            argumentValues: leaves(args),
          };
          await exercise(sent, 'test');
        }),
        { seed: SEED, numRuns: 3000 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'keeps every invariant for garbage: random methods, paths, headers, bytes, nesting and numbers',
    async () => {
      const body = fc.oneof(
        fc.uint8Array({ maxLength: 512 }),
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.jsonValue().map((v) => JSON.stringify(v) ?? ''),
        deepNesting,
        deepNesting.map((deep) => `{"name":"x","count":1,"kind":"a","meta":${deep}}`),
        deepNesting.map((deep) => `{"id":"x","note":"y","extra":${deep}}`),
        hostileNumberText.map((n) => `{"name":"x","count":${n},"kind":"a","n":${n}}`),
        invalidUtf8,
        fc.constantFrom('', ' ', '\n\t', 'null', '[]', '"x"', '0', 'true', '{', '{"a":', '\uFEFF{"id":"x"}', '{}'),
        fc.constant(`{${POLLUTING_MEMBERS},"id":"x","note":"y","name":"x","count":1,"kind":"a"}`),
        fc.constant('__proto__[polluted]=1&constructor[prototype][polluted]=1&id=x&note=y'),
        fc.dictionary(fc.constantFrom(...DANGEROUS_KEYS), fc.jsonValue({ maxDepth: 2 })).map((d) => JSON.stringify(d)),
      );
      const path = fc.oneof(
        { arbitrary: fc.constantFrom(...testNames, ...shippedNames).map((n) => `/functions/${n}`), weight: 5 },
        fc.webPath(),
        anyString.map((s) => `/functions/${encodeURIComponent(s)}`),
        fc.constantFrom(
          '/functions',
          '/functions/',
          '/functions/%',
          '/functions/%E0%A4%A',
          '/functions/__proto__',
          '/functions/constructor',
          '/functions/hasOwnProperty',
          '/functions/..%2f..%2fetc',
          '/functions//quote_plan',
          '/functions/quote_plan/extra',
          '/functions/QUOTE_PLAN',
          '/',
          '/%00',
        ),
      );
      const spec = fc.record({
        target: fc.constantFrom('test' as const, 'entry' as const),
        method,
        path,
        credential,
        contentType,
        headers: noiseHeaders,
        query: noiseQuery,
        body,
      });
      await fc.assert(
        fc.asyncProperty(spec, async (s) => {
          const m = normalise(s.method);
          const named = /^\/functions\/([a-z][a-z0-9_]{0,63})$/.exec(s.path)?.[1];
          const cred = await credentialParts(named ?? 'quote_plan', s.credential);
          const query = new URLSearchParams(s.query);
          const path = `${s.path}?${[query.toString(), cred.query].filter(Boolean).join('&')}`;
          const noise = Object.fromEntries(Object.entries(s.headers).filter(([k]) => !FORBIDDEN_NOISE.test(k)));
          const registered = s.target === 'test' ? (testNames as string[]) : shippedNames;
          let expected: number | undefined;
          // Without the key of the name, everything under /functions/ is the same 401 (no probing).
          if (named === undefined && s.path.startsWith('/functions/')) expected = 401;
          else if (named !== undefined && !credentialIsValid(s.credential)) expected = 401;
          else if (named !== undefined && !registered.includes(named)) expected = 404;
          else if (named !== undefined && !isInvocationMethod(m)) expected = 405;
          let values: string[] = [];
          if (typeof s.body === 'string') {
            try {
              values = leaves(JSON.parse(s.body));
            } catch {
              values = [];
            }
          }
          const sent: Sent = {
            ...(named !== undefined ? { fn: named } : {}),
            method: m,
            path,
            headers: {
              ...noise,
              ...(s.contentType !== undefined ? { 'content-type': s.contentType } : {}),
              ...cred.headers,
            },
            body: s.body,
            ...(expected !== undefined ? { expected } : {}),
            argumentValues: values,
          };
          await exercise(sent, s.target);
        }),
        { seed: SEED, numRuns: 2000 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'answers 413 for every body over the limit and accepts every valid body up to it, streamed or not',
    async () => {
      const spec = fc.record({
        size: sizeAroundLimit,
        pad: fc.constantFrom('spaces', 'multibyte', 'stream'),
      });
      await fc.assert(
        fc.asyncProperty(spec, async ({ size, pad }) => {
          const encoder = new TextEncoder();
          const base = JSON.stringify(VALID_EXAMPLES.fuzz_record);
          let text: string;
          if (pad === 'multibyte') {
            // Two-byte characters put the limit between the bytes of one character.
            const prefix = `${base.slice(0, -1)},"padding":"`;
            const room = Math.max(0, size - encoder.encode(`${prefix}"}`).byteLength);
            text = `${prefix}${'\u00e9'.repeat(Math.floor(room / 2))}${room % 2 ? ' ' : ''}"}`;
          } else {
            text = base + ' '.repeat(Math.max(0, size - base.length));
          }
          const bytes = encoder.encode(text);
          const expected = bytes.byteLength > DEFAULT_BODY_LIMIT ? 413 : 200;
          const path = `/functions/fuzz_record?key=${await keyOf('fuzz_record')}`;
          const sent: Sent = {
            fn: 'fuzz_record',
            method: 'POST',
            path,
            headers: { 'content-type': 'application/json' },
            body: text,
            expected,
            argumentValues: ['Ada'],
          };
          const request =
            pad === 'stream'
              ? new Request(`${ORIGIN}${path}`, {
                  method: 'POST',
                  headers: sent.headers,
                  // No Content-Length: the limit must hold while the body streams in.
                  body: new ReadableStream({
                    start(controller) {
                      for (let at = 0; at < bytes.byteLength; at += 8192)
                        controller.enqueue(bytes.slice(at, at + 8192));
                      controller.close();
                    },
                  }),
                })
              : undefined;
          await exercise(sent, 'test', request);
        }),
        { seed: SEED, numRuns: 200 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'keeps every invariant for the shipped functions called through the real entry',
    async () => {
      const spec = fc.constantFrom(...shippedNames).chain((fn) =>
        fc.record({
          fn: fc.constant(fn),
          args: fc.oneof(objectOf(schemaOf(fn)), fc.constant(manifestExample(fn))),
          encoding: fc.constantFrom(...encodings),
          envelope: envelopeKey,
          get: fc.boolean(),
          credential,
          signature,
        }),
      );
      await fc.assert(
        fc.asyncProperty(spec, async (s) => {
          const m = s.get ? 'GET' : 'POST';
          const body = m === 'GET' ? '' : encode(s.args, s.encoding, s.envelope);
          const cred = await credentialParts(s.fn, s.credential);
          const query = new URLSearchParams(m === 'GET' ? toQuery(s.args) : []);
          const path = `/functions/${s.fn}?${[query.toString(), cred.query].filter(Boolean).join('&')}`;
          const headers = {
            'content-type': 'application/json',
            ...cred.headers,
            ...(await signatureParts(s.signature, body)),
          };
          let expected: number | undefined;
          if (!credentialIsValid(s.credential)) expected = 401;
          else if (s.signature !== 'none' && s.signature !== 'valid') expected = 401;
          const sent: Sent = {
            fn: s.fn,
            method: m,
            path,
            headers,
            body,
            ...(expected !== undefined ? { expected } : {}),
            argumentValues: leaves(s.args),
          };
          await exercise(sent, 'entry');
        }),
        { seed: SEED, numRuns: 1200 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'serves every copy of a validly signed call: identical arguments from many conversations in one second',
    async () => {
      const spec = fc.record({
        fn: fc.constantFrom(...testNames),
        copies: fc.integer({ min: 2, max: 4 }),
        together: fc.boolean(),
        encoding: fc.constantFrom(...encodings),
        envelope: envelopeKey,
      });
      await fc.assert(
        fc.asyncProperty(spec, async (s) => {
          const body = encode(VALID_EXAMPLES[s.fn], s.encoding, s.envelope);
          const path = `/functions/${s.fn}?key=${await keyOf(s.fn)}`;
          const headers = { 'content-type': 'application/json', ...(await signatureParts('valid', body)) };
          const expected =
            s.fn === 'fuzz_throws' ? 500 : s.fn === 'fuzz_strict' && s.encoding === 'polluting' ? 422 : 200;
          const sent: Sent = {
            fn: s.fn,
            method: 'POST',
            path,
            headers,
            body,
            expected,
            argumentValues: leaves(VALID_EXAMPLES[s.fn]),
          };
          const copies = Array.from({ length: s.copies }, () => sent);
          if (s.together) await Promise.all(copies.map((copy) => exercise(copy, 'test')));
          else for (const copy of copies) await exercise(copy, 'test');
          stats.signedDuplicates += s.copies;
        }),
        { seed: SEED, numRuns: 150 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'answers a body that trickles or stalls within the time limit, with a 408 once it is certainly late',
    async () => {
      const spec = fc.record({
        fn: fc.constantFrom(...testNames),
        everyMs: fc.integer({ min: 0, max: SLOW_BODY_MAX_PAUSE_MS }),
        chunk: fc.integer({ min: 1, max: 16 }),
        stallAfter: fc.option(fc.integer({ min: 0, max: 20 }), { freq: 3 }),
      });
      await fc.assert(
        fc.asyncProperty(spec, async (s) => {
          const bytes = new TextEncoder().encode(JSON.stringify(VALID_EXAMPLES[s.fn]));
          const chunks = Math.ceil(bytes.byteLength / s.chunk);
          let at = 0;
          const body = new ReadableStream<Uint8Array>({
            async pull(controller) {
              if (s.stallAfter !== null && at >= s.stallAfter) return new Promise<void>(() => {});
              await new Promise((resolve) => setTimeout(resolve, s.everyMs));
              if (at >= bytes.byteLength) controller.close();
              else {
                controller.enqueue(bytes.slice(at, at + s.chunk));
                at += s.chunk;
              }
            },
          });
          const path = `/functions/${s.fn}?key=${await keyOf(s.fn)}`;
          const headers = { 'content-type': 'application/json' };
          const certainlyLate =
            (s.stallAfter !== null && s.stallAfter < bytes.byteLength) || chunks * s.everyMs > 2 * QUICK_LIMIT_MS;
          const sent: Sent = {
            fn: s.fn,
            method: 'POST',
            path,
            headers,
            ...(certainlyLate ? { expected: 408 } : {}),
            argumentValues: leaves(VALID_EXAMPLES[s.fn]),
          };
          const request = new Request(`${ORIGIN}${path}`, {
            method: 'POST',
            headers,
            body,
            duplex: 'half',
          } as RequestInit);
          const started = Date.now();
          await exercise(sent, 'quick', request);
          // The deadline holds even on a busy machine: never a whole slow body's worth of waiting.
          expect(Date.now() - started).toBeLessThan(QUICK_LIMIT_MS + 1500);
          stats.slowBodies++;
        }),
        { seed: SEED, numRuns: 60 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'gives a caller without the key of a name one identical 401, whatever the name, method, path or key',
    async () => {
      // One reference answer per way in (the entry's answers pass a service binding, which adds headers).
      const references = new Map<string, string>();
      const spec = fc.record({
        method,
        name: fc.oneof(
          fc.constantFrom(...testNames, ...shippedNames),
          fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/),
          anyString,
        ),
        suffix: fc.constantFrom('', '/extra', '/'),
        credential: credential.filter((c) => !credentialIsValid(c)),
        target: fc.constantFrom('test' as const, 'entry' as const),
      });
      await fc.assert(
        fc.asyncProperty(spec, async (s) => {
          const m = normalise(s.method);
          const cred = await credentialParts(s.name, s.credential);
          const path = `/functions/${encodeURIComponent(s.name)}${s.suffix}${cred.query ? `?${cred.query}` : ''}`;
          const request = new Request(`${ORIGIN}${path}`, { method: m, headers: cred.headers });
          const response = await (s.target === 'test' ? testFetch(request) : entry.fetch(request));
          stats.probes++;
          const headers = [...response.headers].filter(([name]) => name !== 'x-request-id');
          const body =
            m === 'HEAD' ? undefined : ((await response.json()) as { error: { code: string; message: string } });
          const seen = JSON.stringify({
            status: response.status,
            headers,
            code: body?.error.code,
            message: body?.error.message,
          });
          if (m !== 'HEAD' && !references.has(s.target)) references.set(s.target, seen);
          expect(response.status).toBe(401);
          if (m !== 'HEAD') expect(seen).toBe(references.get(s.target));
        }),
        { seed: SEED, numRuns: 400 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it('reached every answer and every handler, and its log audit saw the logs (the fuzzer is not blind)', () => {
    expect(stats.requests).toBeGreaterThanOrEqual(6000);
    expect(stats.signedDuplicates).toBeGreaterThanOrEqual(300);
    expect(stats.slowBodies).toBe(60);
    expect(stats.probes).toBe(400);
    for (const status of [200, 400, 401, 404, 405, 408, 413, 422, 500]) {
      expect(stats.byStatus.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(0);
    }
    expect(stats.testRuns).toBeGreaterThan(200);
    expect(stats.shippedRuns).toBeGreaterThan(50);
    expect(logLines.some((line) => line.includes('"event":"invocation"'))).toBe(true);
    // The opted-in function's arguments do reach the log, so the audit would see a leak.
    expect(logLines.some((line) => line.includes('logged on purpose'))).toBe(true);
  });
});
