// How much a refused definition is told. Definitions are checked where a person reads the answer:
// `npm test`, `npm run dev`, and sync and the linter, which start the Worker locally. There, every
// message ends with the fix. A bundle built for deploy (wrangler sets NODE_ENV to "production")
// keeps each check and its fact, and drops the fix's words: no one reads them there, and every
// deployed Worker would carry them (docs/performance.md, the framework's share).
import type { WithProcess } from './env.ts';

/** True but in a production bundle, where it folds to false and the fixes' words are dropped. */
export const EXPLAINS: boolean = (globalThis as WithProcess).process?.env.NODE_ENV !== 'production';
