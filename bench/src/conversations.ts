// Part 1d: functions within a conversation (docs/functions.md "In a conversation"), on one Worker
// with the CallLedger and the DeferredCall workflow, against a plain call of the same function,
// side by side (interleave.ts): a read that carries conversation ids, a write whose repeats are
// checked (each call new), a deferred function whose work finishes in time, and the first answer
// of a deferred function whose work takes 5 s, with its follow-ups counted at the local platform.
// The write's anchor is a hand-written Worker making the same durable claim (bench/workers/
// baselineDedupe.ts), served beside it and measured in the same rounds.
import { createPlatformClient } from 'agent-functions/platform';
import { functionKey } from 'agent-functions/worker';
import { startEmulator } from '../../scripts/platform/emulator.ts';
import { ANSWER_WITHIN_MS, SLOW_WORK_MS } from '../workers/deferredTiming.ts';
import { QUOTE_FUNCTION } from '../workers/quote.ts';
import type { BuiltWorker } from './buildWorker.ts';
import { interleavedLoad } from './interleave.ts';
import { VALID_BODY } from './invocation.ts';
import type { LoadResult, LoadTarget } from './loadTest.ts';
import { BENCH_SECRET, serveWorker } from './serveWorker.ts';
import { percentile } from './stats.ts';

/** Every round of the load cases, and the deferred calls' first answers. */
export interface ConversationResults {
  plain: LoadResult[];
  readWithIds: LoadResult[];
  write: LoadResult[];
  /** The same write on the hand-written Worker with the same durable claim (baselineDedupe.ts). */
  writeBaseline: LoadResult[];
  laterInTime: LoadResult[];
  /** A read making one Durable Object round trip that writes nothing: the floor under any check. */
  ledgerFloor: LoadResult[];
  /** First-answer latency of each deferred call whose work takes SLOW_WORK_MS, in ms (5 at once). */
  deferredFirstAnswerMs: number[];
  /** The same with BURST calls at once. */
  deferredBurstMs: number[];
  /**
   * Where each deferred call's interim spent its time, from its `call_deferred` log line
   * (src/conversations/later.ts): the claim's and the create's round trips, and how long past its
   * due time (answerWithinMs after its arguments were in) the Worker answered; five at a time and in bursts alike.
   */
  deferredStages?: DeferredStages;
  answerWithinMs: number;
  /** Follow-up messages the local platform received for those calls (one each is right). */
  followUps: number;
}

/** Milliseconds of each deferred call's stages (one entry per call). */
export interface DeferredStages {
  claimMs: number[];
  createMs: number[];
  lateMs: number[];
}

/** Reads a deferred call's stages from its `call_deferred` log line into `into`. */
const readStages = (into: DeferredStages) => (line: string) => {
  if (!line.includes('"call_deferred"')) return;
  const { claimMs, createMs, lateMs } = JSON.parse(line) as Partial<Record<keyof DeferredStages, number>>;
  if (claimMs === undefined || createMs === undefined || lateMs === undefined) return;
  into.claimMs.push(claimMs);
  into.createMs.push(createMs);
  into.lateMs.push(lateMs);
};

const CASES = ['plain', 'readWithIds', 'write', 'writeBaseline', 'laterInTime', 'ledgerFloor'] as const;

/** Deferred calls at once in the burst row. */
export const BURST = 20;

/** The options of part 1d. */
interface ConversationOptions {
  rounds: number;
  seconds: number;
  connections: number;
  warmupSeconds: number;
  /** The load cases (--only conversations.load); on unless false. */
  load?: boolean;
  /** The deferred calls (--only conversations.deferred); on unless false. */
  deferred?: boolean;
}

/** The conversation ids of a call from the bench's customer. */
type IdsOf = (conversationId: string) => { contactId: string; conversationId: string; channel: string };

/** One of the load cases. */
type CaseName = (typeof CASES)[number];

/**
 * The load cases, as interleave.ts asks for them: what slice `slice` of case `name` sends. A
 * write's notes name the slice and the call, so every call of every slice is a new write.
 */
const loadCases = async (
  urlOf: (name: string) => Promise<string>,
  anchorUrl: string | URL,
  ids: IdsOf,
): Promise<(name: CaseName, slice: number) => LoadTarget> => {
  const valid = JSON.parse(VALID_BODY) as Record<string, unknown>;
  const same = (target: LoadTarget) => () => target;
  // 10 conversations, one per connection or so, each call a new one (its notes differ): every
  // check finds nothing and runs. The conversations' ledgers exist after the warm-up.
  const writes =
    (url: string) =>
    (slice: number): LoadTarget => ({
      url,
      body: '',
      bodyOf: (n) => JSON.stringify({ ...valid, notes: `call ${slice}.${n}`, ...ids(`cv_write_${n % 10}`) }),
      expectStatus: 200,
    });
  const cases: Record<CaseName, (slice: number) => LoadTarget> = {
    plain: same({ url: await urlOf('quote_read'), body: VALID_BODY, expectStatus: 200 }),
    readWithIds: same({
      url: await urlOf('quote_read'),
      body: JSON.stringify({ ...valid, ...ids('cv_read') }),
      expectStatus: 200,
    }),
    write: writes(await urlOf('quote_write')),
    writeBaseline: writes(
      new URL(`/functions/${QUOTE_FUNCTION}?key=${await functionKey(BENCH_SECRET, QUOTE_FUNCTION)}`, anchorUrl).href,
    ),
    ledgerFloor: same({ url: await urlOf('quote_floor'), body: VALID_BODY, expectStatus: 200 }),
    laterInTime: same({
      url: await urlOf('quote_later'),
      body: JSON.stringify({ ...valid, ...ids('cv_later') }),
      expectStatus: 200,
    }),
  };
  return (name, slice) => cases[name](slice);
};

/** The load cases side by side (interleave.ts); a wrong answer stops the part. */
const loadRounds = async (
  targetOf: (name: CaseName, slice: number) => LoadTarget,
  options: ConversationOptions,
  progress: (line: string) => void,
) => {
  if (options.load === false) {
    return { plain: [], readWithIds: [], write: [], writeBaseline: [], laterInTime: [], ledgerFloor: [] };
  }
  return interleavedLoad(CASES, targetOf, options, 'conversations', progress);
};

/**
 * Deferred calls whose work takes 5 s, each timed to its first answer: five in flight at a time,
 * then bursts of BURST at once. Each to a contact of its own: one contact gets at most
 * FOLLOW_UP_BUDGET's follow-ups in a window.
 */
const deferredCalls = async (
  client: ReturnType<typeof createPlatformClient>,
  slowUrl: string,
  ids: IdsOf,
  options: ConversationOptions,
) => {
  let seats = 0;
  const deferredCall = async (into: number[]) => {
    const n = seats++;
    const customer = await client.contacts.create({
      name: `Bench customer ${n}`,
      phone: `+1555556${String(n).padStart(4, '0')}`,
      channel: 'whatsapp',
    });
    const began = performance.now();
    const response = await fetch(slowUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seats: n, ...ids(`cv_slow_${n}`), contactId: customer.id }),
    });
    const body = (await response.json()) as { status?: string };
    into.push(performance.now() - began);
    if (body.status !== 'pending') throw new Error(`quote_slow answered ${JSON.stringify(body)}, not pending`);
  };
  const deferredFirstAnswerMs: number[] = [];
  const fives = options.deferred === false ? 0 : Math.max(10, options.rounds * 10);
  for (let start = 0; start < fives; start += 5)
    await Promise.all(Array.from({ length: Math.min(5, fives - start) }, () => deferredCall(deferredFirstAnswerMs)));
  const deferredBurstMs: number[] = [];
  for (let burst = 0; burst < (options.deferred === false ? 0 : Math.max(2, options.rounds)); burst++)
    await Promise.all(Array.from({ length: BURST }, () => deferredCall(deferredBurstMs)));
  return { deferredFirstAnswerMs, deferredBurstMs, calls: seats };
};

/**
 * Serves `built` (bench/workers/projectWithConversations.ts) against a local platform and measures part 1d.
 * @example await measureConversations(built.projectWithConversations, settings)
 */
export const measureConversations = async (
  built: BuiltWorker,
  baselineDedupe: BuiltWorker,
  options: ConversationOptions,
  progress: (line: string) => void = () => {},
): Promise<ConversationResults> => {
  const platform = await startEmulator({ port: 0, rateLimit: false });
  try {
    const account = platform.accounts[0];
    if (!account) throw new Error('the local platform has no account');
    const client = createPlatformClient({ baseUrl: platform.url, apiKey: account.apiKey });
    const contact = await client.contacts.create({
      name: 'Bench customer',
      phone: '+15555550100',
      channel: 'whatsapp',
    });
    const deferredStages: DeferredStages = { claimMs: [], createMs: [], lateMs: [] };
    const served = await serveWorker(built.scriptPath, {
      onLog: readStages(deferredStages),
      bindings: { PLATFORM_API_KEY: account.apiKey, PLATFORM_BASE_URL: platform.url },
      durableObjects: { CALL_LEDGER: 'CallLedger' },
      workflows: { DEFERRED_CALLS: { name: 'bench-deferred-calls', className: 'DeferredCall' } },
    });
    const anchor = await serveWorker(baselineDedupe.scriptPath, { durableObjects: { CLAIMS: 'ClaimLedger' } });
    try {
      const urlOf = async (name: string) =>
        new URL(`/functions/${name}?key=${await functionKey(BENCH_SECRET, name)}`, served.url).href;
      const ids: IdsOf = (conversationId) => ({ contactId: contact.id, conversationId, channel: 'whatsapp' });
      const results = await loadRounds(await loadCases(urlOf, anchor.url, ids), options, progress);
      const { deferredFirstAnswerMs, deferredBurstMs, calls } = await deferredCalls(
        client,
        await urlOf('quote_slow'),
        ids,
        options,
      );
      progress(`conversations: ${calls} deferred calls answered; waiting for their follow-ups`);
      const sent = () =>
        [...(platform.state.accounts[0]?.messages.values() ?? [])].filter((m) => m.direction === 'outbound').length;
      const until = Date.now() + SLOW_WORK_MS * 2 + 30_000;
      while (sent() < calls && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250));
      return {
        ...results,
        deferredFirstAnswerMs,
        deferredBurstMs,
        deferredStages,
        answerWithinMs: ANSWER_WITHIN_MS,
        followUps: sent(),
      };
    } finally {
      await Promise.all([served.stop(), anchor.stop()]);
    }
  } finally {
    await platform.close();
  }
};

/** The p99 of the deferred first answers, in ms. */
export const deferredP99 = (results: ConversationResults): number => percentile(results.deferredFirstAnswerMs, 99);

/** The p99 of the deferred first answers with BURST calls at once, in ms. */
export const burstP99 = (results: ConversationResults): number => percentile(results.deferredBurstMs ?? [], 99);
