// What the framework's tests share: the testing helpers a project gets, and the test secret.
import { env } from 'cloudflare:workers';

export { bareContext, call, errorOf, keyOf, ORIGIN, send, through } from '../testing/index.ts';

/** FUNCTIONS_SECRET of the test Worker (vitest.config.ts). */
export const SECRET = 'test-functions-secret';

export { env };
