#!/usr/bin/env node
// The `agent-functions` command: a stub that always exists, so npm links it on a fresh install
// before the package's `prepare` has built dist/; it loads the built CLI.
import { existsSync } from 'node:fs';

const built = new URL('./dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('agent-functions is not built yet: run npm run build (npm install does it).\n');
  process.exitCode = 1;
}
