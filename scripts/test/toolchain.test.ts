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

describe("the packages' engines", () => {
  it('accept the Node 20 that may install them: the npm scripts bring Node 24 (decision 0003)', () => {
    for (const folder of ['.', 'src', 'scripts']) {
      const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, folder, 'package.json'), 'utf8')) as {
        name: string;
        engines?: { node?: string };
      };
      // Our engines are lower bounds only (">=20"): Node 20.19 must be at or above the bound.
      const [major = 0, minor = 0] = (/^>=\s*(\d+)(?:\.(\d+))?/.exec(pkg.engines?.node ?? '>=0')?.slice(1) ?? [])
        .filter((part) => part !== undefined)
        .map(Number);
      expect(major * 1000 + minor <= 20_019, `${pkg.name}: engines.node ${pkg.engines?.node}`).toBe(true);
    }
  });
});
