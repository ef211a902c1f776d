// Every npm script runs on the Node the project pins (the `node` devDependency, decision 0003),
// whatever the machine's own Node is: the tools need 22.12 or later, and a different binary than
// the pinned one fails here rather than somewhere later.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './repo.ts';

describe('the toolchain', () => {
  it('runs the tests on exactly the Node version the root package pins', () => {
    const root = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(root.devDependencies.node).toMatch(/^\d+\.\d+\.\d+$/);
    expect(process.versions.node).toBe(root.devDependencies.node);
  });
});
