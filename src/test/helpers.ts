// What the framework's tests share: the testing helpers a project gets, and the test secret.
import { env } from 'cloudflare:workers';
import { afterAll, beforeAll } from 'vitest';
import type { Env } from '../env.ts';
import { type CallRecord, setRecordSink } from '../record.ts';

export { bareContext, call, errorOf, keyOf, ORIGIN, send, through } from '../testing/index.ts';

/** FUNCTIONS_SECRET of the test Worker (vitest.config.ts). */
export const SECRET = 'test-functions-secret';

export { env };

/**
 * Puts the record sink back as this file found it once its tests are done: a Worker made with the
 * metrics option installs the option's sink for the whole isolate, which many files share
 * (vitest.config.ts). Call it before such a Worker is made.
 */
export const restoreRecordSinkAfterAll = (): void => {
  const found = setRecordSink(undefined);
  setRecordSink(found);
  afterAll(() => {
    setRecordSink(found);
  });
};

/** The test env without the metrics option's bindings: its sink still stamps each record, and flushes nothing. */
export const envWithoutFigures = (): Env =>
  ({ ...(env as Env), CALL_RECORDS: undefined, FUNCTION_HEALTH: undefined }) as Env;

/**
 * Collects every record into `records` while the file's tests run, after the sink already set (the
 * metrics option's, which stamps each record's version), and puts that sink back after them.
 */
export const collectRecords = (records: CallRecord[]): void => {
  let before: ReturnType<typeof setRecordSink>;
  beforeAll(() => {
    before = setRecordSink((record, recordEnv, ctx) => {
      before?.(record, recordEnv, ctx);
      records.push(record);
    });
  });
  afterAll(() => {
    setRecordSink(before);
  });
};
