import { createHash } from 'node:crypto';
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
          src: {
            name: 'agent-functions',
            version: '0.2.0',
            license: 'UNLICENSED',
            dependencies: { '@modelcontextprotocol/server': '2.4.0' },
            devDependencies: { 'fast-check': '^4.10.2' },
            peerDependencies: { zod: '^4.6.7' },
          },
          'scripts/node_modules/diff': { version: '9.0.0' },
          'node_modules/agent-functions': { resolved: 'src', link: true },
          'node_modules/agent-functions-cli': { resolved: 'scripts', link: true },
          'node_modules/zod': { version: '4.6.7', resolved: 'https://registry/zod.tgz', integrity: 'sha512-x' },
        },
      }),
    );
    mkdirSync(join(dir, 'packages'));
    writeFileSync(join(dir, 'packages', 'agent-functions-0.2.0.tgz'), 'the packed framework');
    const project = {
      name: 'my-agent',
      version: '0.1.0',
      dependencies: { 'agent-functions': 'file:packages/agent-functions-0.2.0.tgz', zod: '^4.6.7' },
    };
    writeLocalLockfile(dir, project, checkout);
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect(lock.name).toBe('my-agent');
    expect(lock.lockfileVersion).toBe(3);
    expect(Object.keys(lock.packages)).toEqual(['', 'node_modules/agent-functions', 'node_modules/zod']);
    expect(lock.packages['']).toEqual(project);
    expect(lock.packages['node_modules/zod'].integrity).toBe('sha512-x');
  });

  it('lists each packed tarball as installed, so npm resolves nothing and fetches no peer’s registry document offline', () => {
    // Without this entry, `npm install --offline` resolved the tarball and asked for zod's full
    // registry document (its peer), which the checkout's lockfile install never caches: ERESOLVE zod@undefined.
    const checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
    const dir = mkdtempSync(join(tmpdir(), 'project-'));
    writeFileSync(
      join(checkout, 'package-lock.json'),
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { name: 'agent-functions-project', workspaces: ['src', 'scripts'] },
          src: { name: 'agent-functions', version: '0.2.0', peerDependencies: { zod: '^4.6.7' } },
          scripts: {
            name: 'agent-functions-cli',
            version: '0.2.0',
            dependencies: { 'agent-functions': '0.2.0', 'csv-parse': '^6.2.1' },
            devDependencies: { wrangler: '^4.164.0' },
            bin: { 'agent-functions': 'agent-functions.js' },
          },
          'node_modules/agent-functions': { resolved: 'src', link: true },
          'node_modules/agent-functions-cli': { resolved: 'scripts', link: true },
          'node_modules/zod': { version: '4.6.7', integrity: 'sha512-x' },
        },
      }),
    );
    mkdirSync(join(dir, 'packages'));
    const tarball = Buffer.from('the packed CLI');
    writeFileSync(join(dir, 'packages', 'agent-functions-cli-0.2.0.tgz'), tarball);
    writeFileSync(join(dir, 'packages', 'agent-functions-0.2.0.tgz'), 'the packed framework');
    writeLocalLockfile(
      dir,
      {
        name: 'my-agent',
        version: '0.1.0',
        dependencies: { 'agent-functions': 'file:packages/agent-functions-0.2.0.tgz', zod: '^4.6.7' },
        devDependencies: { 'agent-functions-cli': 'file:packages/agent-functions-cli-0.2.0.tgz' },
      },
      checkout,
    );
    const { packages } = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    expect(packages['node_modules/agent-functions']).toEqual({
      version: '0.2.0',
      resolved: 'file:packages/agent-functions-0.2.0.tgz',
      integrity: expect.stringMatching(/^sha512-/),
      peerDependencies: { zod: '^4.6.7' },
    });
    expect(packages['node_modules/agent-functions-cli']).toEqual({
      version: '0.2.0',
      resolved: 'file:packages/agent-functions-cli-0.2.0.tgz',
      integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}`,
      dev: true,
      dependencies: { 'agent-functions': '0.2.0', 'csv-parse': '^6.2.1' },
      bin: { 'agent-functions': 'agent-functions.js' },
    });
  });

  it('writes nothing when the checkout has no lockfile', () => {
    const checkout = mkdtempSync(join(tmpdir(), 'checkout-'));
    const dir = mkdtempSync(join(tmpdir(), 'project-'));
    writeLocalLockfile(dir, { name: 'x', version: '0.1.0' }, checkout);
    expect(() => readFileSync(join(dir, 'package-lock.json'))).toThrow();
  });
});
