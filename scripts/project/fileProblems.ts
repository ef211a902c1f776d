// The lines a person reads about a bad platform.accounts.json (docs/sync-and-accounts.md): each
// problem names its account by its name, never by its place in the list (`accounts.2`), and the key,
// with the key it most likely meant when one is misspelled. Shared by the file's own check
// (accounts.ts) and the check of each account's settings against the project's schema (settingsSchema.ts).

/** A zod issue, as much of it as these lines read (zod's own type, without depending on its instance). */
export interface FileIssue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
}

/** The message of the second entry of a name already used (accounts.ts adds it at that entry). */
export const DUPLICATE = 'is listed twice: each account needs a name of its own.';

const distance = (a: string, b: string): number => {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (row[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1]?.toLowerCase() === b[j - 1]?.toLowerCase() ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
};

/**
 * The known key a misspelled `key` most likely meant, if one is close (two edits at most).
 * @example closestKey('apiKeyEnvv', ['name', 'apiKeyEnv']) // 'apiKeyEnv'
 */
export const closestKey = (key: string, known: readonly string[]): string | undefined => {
  const ranked = known.map((candidate) => ({ candidate, d: distance(key, candidate) })).sort((a, b) => a.d - b.d);
  const best = ranked[0];
  return best && best.d <= Math.min(2, Math.max(1, Math.floor(key.length / 4))) ? best.candidate : undefined;
};

const ORDINALS = ['1st', '2nd', '3rd'];

/**
 * How a line names the entry at `index` of the file's accounts: by its name, else by its place.
 * @example accountLabel({ accounts: [{ name: 'agency' }] }, 0) // 'account "agency"'
 */
export const accountLabel = (content: unknown, index: number): string => {
  const entry = (content as { accounts?: unknown[] } | null)?.accounts?.[index];
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name !== ''
    ? `account ${JSON.stringify(name)}`
    : `the ${ORDINALS[index] ?? `${index + 1}th`} account (it has no name)`;
};

/**
 * What one issue says, below whatever it is about: `key: message`, or `unknown key "k"` (one per
 * key), with the known keys there (`known`) to suggest from.
 * @example describeIssue({ code: 'unrecognized_keys', path: [], keys: ['openingHour'], message: '' }, ['openingHours']) // ['unknown key "openingHour" (did you mean "openingHours"?)']
 */
export const describeIssue = (issue: FileIssue, known: readonly string[] = []): string[] => {
  const where = issue.path.map(String).join('.');
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return issue.keys.map((key) => {
      const meant = closestKey(key, known);
      return `${where ? `${where}: ` : ''}unknown key ${JSON.stringify(key)}${meant ? ` (did you mean ${JSON.stringify(meant)}?)` : ''}`;
    });
  }
  return [`${where ? `${where}: ` : ''}${issue.message}`];
};

/**
 * One line per problem of an accounts file's `content`, each naming its account; `knownAt` gives the
 * keys allowed at a path (the file's own, an account's), to suggest the one a misspelled key meant.
 * @example issueLines(issues, content, known) // ['account "client-bolt": unknown key "apiKeyEnvv" (did you mean "apiKeyEnv"?)']
 */
export const issueLines = (
  issues: readonly FileIssue[],
  content: unknown,
  knownAt: (path: readonly PropertyKey[]) => readonly string[],
): string[] =>
  issues.flatMap((issue) => {
    const [top, index, ...rest] = issue.path;
    if (top !== 'accounts' || typeof index !== 'number') {
      return describeIssue(issue, knownAt(issue.path));
    }
    const label = accountLabel(content, index);
    if (issue.message === DUPLICATE && rest.length === 0) return [`${label} ${DUPLICATE}`];
    return describeIssue({ ...issue, path: rest }, knownAt(issue.path)).map((line) => `${label}: ${line}`);
  });
