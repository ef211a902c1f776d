// What the framework's tests share: the testing helpers a project gets, and the test secret.
import { env } from 'cloudflare:workers';
import { afterAll } from 'vitest';
import { setRecordSink } from '../record.ts';

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
