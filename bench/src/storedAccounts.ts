// What the Worker's bundle holds of an accounts file listing `clients` clients whose keys are in the
// account store: the real generator's answer (workerAccounts of the CLI, which generated/accounts.ts
// is written from), as the BENCH_STORED_ACCOUNTS define of bench/workers/projectWithStoredAccounts.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workerAccounts } from '../../scripts/project/accounts.ts';

/**
 * The generated accounts option of an agency with `clients` store-kept clients, as JSON.
 * @example storedAccountsDefine(5000) // '{"list":[{"name":"agency",...}]}'
 */
export const storedAccountsDefine = (clients: number): string => {
  const root = mkdtempSync(join(tmpdir(), 'bench-stored-accounts-'));
  try {
    const accounts = [
      { name: 'agency', apiKeyEnv: 'PLATFORM_API_KEY' },
      ...Array.from({ length: clients }, (_, i) => ({ name: `client-${i + 1}` })),
    ];
    writeFileSync(join(root, 'platform.accounts.json'), JSON.stringify({ accounts }));
    return JSON.stringify(workerAccounts(root));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
};
