// An edit of dev.config.ts (read once when dev starts) says that dev must restart.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { restartLine, watchReadAtStart } from '../../dev/restartNotice.ts';

describe('an edit of dev.config.ts under npm run dev', () => {
  it('says that dev must restart for it, once per file', async () => {
    const root = mkdtempSync(join(tmpdir(), 'dev-restart-'));
    writeFileSync(join(root, 'dev.config.ts'), 'export default {};\n');
    const said: string[] = [];
    const watcher = watchReadAtStart(root, (line) => said.push(line));
    try {
      await new Promise<void>((resolve) => watcher?.once('ready', () => resolve()));
      writeFileSync(join(root, 'dev.config.ts'), 'export default { setup: () => ({}) };\n');
      await vi.waitFor(() => expect(said).toEqual([restartLine('dev.config.ts')]), { timeout: 5_000 });
      writeFileSync(join(root, 'dev.config.ts'), 'export default {};\n');
      await sleep(500);
      expect(said).toHaveLength(1);
      expect(said[0]).toContain('Restart dev');
    } finally {
      await watcher?.close();
    }
  });
});
