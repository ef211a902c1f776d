// Whether the local platform holds what the Worker serves: dev checks after every reload and sync,
// so an edit no watcher saw, or a change made on the platform behind dev's back, is said and synced.
import type { FunctionRecord, RemoteFunction } from 'agent-functions/platform';
import { planSync } from '../sync/plan.ts';

/**
 * One line per difference between the registrations of `origin` on the platform and `desired`, for
 * `account` (the name its urls carry; undefined for the first account's).
 * @example driftLines(desired, remote, 'http://127.0.0.1:8787') // ["the local platform's lookup_warranty differs from what the Worker serves (description)"]
 */
export const driftLines = (
  desired: FunctionRecord[],
  remote: RemoteFunction[],
  origin: string,
  account?: string,
): string[] =>
  planSync({ desired, remote, origin, prune: true, ...(account === undefined ? {} : { account }) }).entries.flatMap(
    (entry) => {
      switch (entry.action) {
        case 'update':
          return [
            `the local platform's ${entry.name} differs from what the Worker serves (${entry.changes.map((c) => c.field).join(', ')})`,
          ];
        case 'create':
          return [`the local platform lacks ${entry.name}, which the Worker serves`];
        case 'delete':
          return [`the local platform still holds ${entry.name}, which the Worker no longer serves`];
        default:
          return [];
      }
    },
  );
