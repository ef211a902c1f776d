#!/usr/bin/env node
// The `agent-functions` command: a stub that always exists, so npm links it on a fresh install
// before the package's `prepare` has built dist/; it loads the built CLI.
import { existsSync } from 'node:fs';
import module from 'node:module';

// V8's compiled code of the CLI's modules and of wrangler's 15 MB bundle, kept between runs in the
// OS temp folder (Node 22.1+; NODE_DISABLE_COMPILE_CACHE=1 turns it off): a command starts about
// 0.3 s of CPU sooner. The wrangler and npx processes a command starts get it through the variable.
const cache = module.enableCompileCache?.();
if (cache?.directory && process.env.NODE_COMPILE_CACHE === undefined) process.env.NODE_COMPILE_CACHE = cache.directory;

const built = new URL('./dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('agent-functions is not built yet: run npm run build (npm install does it).\n');
  process.exitCode = 1;
}
