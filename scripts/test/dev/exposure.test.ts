import { describe, expect, it } from 'vitest';
import { networkExposure } from '../../dev/exposure.ts';

describe('npm run dev -- --ip', () => {
  it('warns when the Worker is reachable beyond this machine, saying whether calls need a key', () => {
    expect(networkExposure('0.0.0.0', false)).toMatch(
      /anyone on every network this machine is on can call every function WITHOUT a key/,
    );
    expect(networkExposure('192.168.1.20', true)).toMatch(
      /anyone on the network of 192\.168\.1\.20 can call every function, with its key/,
    );
    expect(networkExposure('::', false)).toContain('drop --ip');
  });

  it('says nothing for this machine’s own addresses', () => {
    for (const ip of ['127.0.0.1', 'localhost', '::1', '127.0.0.2'])
      expect(networkExposure(ip, false), ip).toBeUndefined();
  });
});
