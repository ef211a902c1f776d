// What the Worker under `npm run dev` serves, as dev reads it: GET /functions of the local Worker.
// dev's sync loop and its console both read it.
import { ManifestError, parseManifest, type ServedFunction } from '../project/manifest.ts';
import type { ServedForCall } from './howToCall.ts';

/** The Worker's functions (as sync registers them, and in full), or what is wrong with its manifest. */
export type ManifestRead = { served: ServedFunction[]; full: ServedForCall[] } | { error: string };

/**
 * A reader of the manifest the Worker at `origin` serves: its problem, or undefined while it is
 * (re)starting.
 * @example const manifest = workerManifest('http://127.0.0.1:8787'); const read = await manifest();
 */
export const workerManifest = (origin: string) => async (): Promise<ManifestRead | undefined> => {
  try {
    const response = await fetch(`${origin}/functions`, { signal: AbortSignal.timeout(3000) });
    const text = await response.text();
    const served = parseManifest(response.status, text);
    return { served, full: (JSON.parse(text) as { functions: ServedForCall[] }).functions };
  } catch (error) {
    return error instanceof ManifestError ? { error: error.message } : undefined;
  }
};
