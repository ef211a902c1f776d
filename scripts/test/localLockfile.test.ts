import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeLocalLockfile } from '../init/localPackages.ts';

describe("a project made from a clone's lockfile", () => {
  it("keeps the checkout's registry packages, drops its workspace and links, and takes the project as its root", () => {
    const checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
    const dir = mkdtempSync(join(tmpdir(), 'project-'));
    writeFileSync(
      join(checkout, 'package-lock.json'),
      JSON.stringify({
        name: 'agent-functions-project',
        version: '0.2.0',
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: 'agent-functions-project', workspaces: ['src', 'scripts'] },
          src: { name: 'agent-functions', version: '0.2.0' },
          'scripts/node_modules/diff': { version: '9.0.0' },
          'node_modules/agent-functions': { resolved: 'src', link: true },
          'node_modules/agent-functions-cli': { resolved: 'scripts', link: true },
          'node_modules/zod': { version: '4.6.7', resolved: 'https://registry/zod.tgz', integrity: 'sha512-x' },
        },
      }),
    );
    mkdirSync(join(dir, 'packages'));
    const project = {
      name: 'my-agent',
      version: '0.1.0',
      dependencies: { 'agent-functions': 'file:packages/agent-functions-0.2.0.tgz', zod: '^4.6.7' },
    };
    writeLocalLockfile(dir, project, checkout);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect(lock.name).toBe('my-agent');
    expect(lock.lockfileVersion).toBe(3);
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/zod']);
    expect(lock.packages['']).toEqual(project);
    expect(lock.packages['node_modules/zod'].integrity).toBe('sha512-x');
  });

  it('writes nothing when the checkout has no lockfile', () => {
    const checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
    const dir = mkdtempSync(join(tmpdir(), 'project-'));
    writeLocalLockfile(dir, { name: 'x', version: '0.1.0' }, checkout);
    expect(() => readFileSync(join(dir, 'package-lock.json'))).toThrow();
  });
});
