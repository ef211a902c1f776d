// The records of every call the local Worker made (its `invocation` lines, src/record.ts), kept by
// npm run dev for `npm run stats` and the console's health view: up to RECORD_LIMIT of them in a
// ring of typed columns (names interned), 36 bytes a record plus its request id, so the console's
// activity list (workerLog.ts) stays short while the figures cover a long local session.
import { type CallRecord, OUTCOMES, RECORD_KINDS, TRANSPORTS } from 'agent-functions/internal';
import type { StoredRecord } from '../stats/aggregate.ts';

/** How many records dev keeps, oldest dropped. */
export const RECORD_LIMIT = 200_000;
/** Distinct names (accounts, functions, codes, versions) kept; past it a name reads as none. */
const NAME_LIMIT = 50_000;
const FOLLOW_UPS = ['', 'sent', 'failed'] as const;

const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T =>
  values.includes(value as T) ? (value as T) : fallback;

/**
 * The record an `invocation` line carries, or undefined when it is not one. Fields a Worker of an
 * earlier version did not log take their plain values (a call over HTTP).
 * @example recordOf(JSON.parse(line))?.outcome // 'refused'
 */
export const recordOf = (fields: Record<string, unknown>): CallRecord | undefined => {
  const { status, durationMs, requestId } = fields;
  if (typeof status !== 'number' || typeof durationMs !== 'number' || typeof requestId !== 'string') return undefined;
  const outcome = oneOf(OUTCOMES, fields.outcome, status < 400 ? 'ok' : status < 500 ? 'refused' : 'error');
  const followUp = oneOf(FOLLOW_UPS, fields.followUp, '');
  return {
    account: str(fields.account) ?? null,
    function: str(fields.function) ?? null,
    transport: oneOf(TRANSPORTS, fields.transport, 'http'),
    kind: oneOf(RECORD_KINDS, fields.kind, 'call'),
    outcome,
    status,
    durationMs: Math.max(0, durationMs),
    requestId,
    ...(str(fields.code) ? { code: str(fields.code) } : {}),
    ...(str(fields.version) ? { version: str(fields.version) } : {}),
    ...(fields.repeated === true ? { repeated: true } : {}),
    ...(fields.deferred === true ? { deferred: true } : {}),
    ...(followUp ? { followUp } : {}),
  };
};

/** Interned names: a number per distinct name, 0 for none. */
const namesTable = () => {
  const names: string[] = [''];
  const ids = new Map<string, number>([['', 0]]);
  return {
    id(name: string | null | undefined): number {
      if (!name) return 0;
      let id = ids.get(name);
      if (id === undefined) {
        if (names.length >= NAME_LIMIT) return 0;
        id = names.push(name) - 1;
        ids.set(name, id);
      }
      return id;
    },
    name: (id: number): string | undefined => names[id] || undefined,
  };
};

/**
 * A ring of records, fed each `invocation` line's fields by dev's reader of the Worker's output.
 * @example const store = createRecordStore(); store.add(record, Date.now()); aggregate(store.records(), query)
 */
export const createRecordStore = (limit = RECORD_LIMIT) => {
  const at = new Float64Array(limit);
  const duration = new Float64Array(limit);
  const status = new Uint16Array(limit);
  // account, function, code, version: four interned names per record.
  const names = new Uint32Array(limit * 4);
  // kind (3 bits), outcome (2), transport (2), follow-up (2), repeated, deferred.
  const flags = new Uint16Array(limit);
  const requestIds: string[] = [];
  const table = namesTable();
  let next = 0;
  let size = 0;

  // One shape for every record (absent fields undefined), built without spreads: a run of stats reads them all.
  const read = (i: number): StoredRecord => {
    const bits = flags[i] as number;
    const slot = i * 4;
    return {
      account: table.name(names[slot] as number) ?? null,
      function: table.name(names[slot + 1] as number) ?? null,
      transport: TRANSPORTS[(bits >> 5) & 3] ?? 'http',
      kind: RECORD_KINDS[bits & 7] ?? 'call',
      outcome: OUTCOMES[(bits >> 3) & 3] ?? 'ok',
      status: status[i] as number,
      code: table.name(names[slot + 2] as number),
      durationMs: duration[i] as number,
      version: table.name(names[slot + 3] as number),
      repeated: bits & 512 ? true : undefined,
      deferred: bits & 1024 ? true : undefined,
      followUp: FOLLOW_UPS[(bits >> 7) & 3] || undefined,
      requestId: requestIds[i] as string,
      at: at[i] as number,
    };
  };

  return {
    add(record: CallRecord, when: number): void {
      const i = next;
      at[i] = when;
      duration[i] = record.durationMs;
      status[i] = record.status;
      names.set(
        [table.id(record.account), table.id(record.function), table.id(record.code), table.id(record.version)],
        i * 4,
      );
      flags[i] =
        RECORD_KINDS.indexOf(record.kind) |
        (OUTCOMES.indexOf(record.outcome) << 3) |
        (TRANSPORTS.indexOf(record.transport) << 5) |
        (FOLLOW_UPS.indexOf(record.followUp ?? '') << 7) |
        (record.repeated ? 512 : 0) |
        (record.deferred ? 1024 : 0);
      requestIds[i] = record.requestId;
      next = (next + 1) % limit;
      size = Math.min(size + 1, limit);
    },
    /** Every record kept, oldest first. */
    *records(): Generator<StoredRecord> {
      const start = size < limit ? 0 : next;
      for (let n = 0; n < size; n++) yield read((start + n) % limit);
    },
    size: (): number => size,
  };
};

export type RecordStore = ReturnType<typeof createRecordStore>;
