// The local platform of `npm run dev`: its own emulator on a port that is really free (never an
// unknown program that happens to hold the default port). What a project's functions need in it
// (a contact to write to, say) its dev.config.ts creates.
import { DEFAULT_PORT, type RunningEmulator, startEmulator } from '../platform/emulator.ts';
import { DEV_ACCOUNT } from '../platform/state.ts';

export interface LocalPlatform {
  emulator: RunningEmulator;
  /** The Agency account's key: dev syncs there, and functions call the platform with it. */
  agencyKey: string;
  /** Set when the default port was taken and another one was chosen. */
  note?: string;
}

/**
 * Starts the emulator on `port`, or, when none was asked for and the default is taken, on a free one.
 * @example const { emulator, agencyKey } = await startLocalPlatform(undefined)
 */
export const startLocalPlatform = async (
  port: number | undefined,
  defaultPort = DEFAULT_PORT,
): Promise<LocalPlatform> => {
  let emulator: RunningEmulator;
  let note: string | undefined;
  try {
    emulator = await startEmulator({ port: port ?? defaultPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (port !== undefined) {
      throw new Error(`Port ${port} (--platform-port) is taken. Choose another, or leave the flag out for a free one.`);
    }
    emulator = await startEmulator({ port: 0 });
    note = `port ${defaultPort} is taken by another program, so dev's own local platform listens on ${emulator.url}.`;
  }
  // The account the platform CLI's agent commands use by default too (DEV_ACCOUNT).
  const agency = emulator.accounts.find((account) => account.plan === DEV_ACCOUNT);
  if (!agency) throw new Error('The emulator has no Agency account.');
  return { emulator, agencyKey: agency.apiKey, ...(note ? { note } : {}) };
};
