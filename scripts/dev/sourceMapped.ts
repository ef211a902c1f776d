// Under npm run dev the Worker logs where a handler threw (src/settle.ts) as a place in wrangler's
// bundle (.wrangler/tmp/dev-*/worker.js:128:3805). Dev prints that line with the place in the
// project's own file instead (functions/lookup_order.ts:12:5), read from the bundle's source map
// beside it, as Node's own module.SourceMap reads it.
import { readFileSync, statSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// The "at" field of a Worker log line that names a place in a bundle.
const BUNDLE_AT = /"at":"(file:\/\/[^"]+?\.js):(\d+):(\d+)"/g;

/** Source maps by bundle path, read again when the bundle changes (wrangler rebuilds in place). */
export type MapCache = Map<string, { mtimeMs: number; map: SourceMap | undefined }>;

const mapOf = (bundle: string, cache: MapCache): SourceMap | undefined => {
  let mtimeMs: number;
  try {
    mtimeMs = statSync(`${bundle}.map`).mtimeMs;
  } catch {
    return undefined;
  }
  const kept = cache.get(bundle);
  if (kept?.mtimeMs === mtimeMs) return kept.map;
  let map: SourceMap | undefined;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${bundle}.map`, 'utf8')));
  } catch {
    map = undefined;
  }
  cache.set(bundle, { mtimeMs, map });
  return map;
};

/** `url`'s line and column (1-based) as project file:line:column, or undefined when no map says. */
export const originalPlace = (
  url: string,
  line: number,
  column: number,
  root: string,
  cache: MapCache = new Map(),
): string | undefined => {
  const map = mapOf(fileURLToPath(url), cache);
  const entry = map?.findEntry(line - 1, column - 1) as
    | { originalSource?: string; originalLine?: number; originalColumn?: number }
    | undefined;
  if (!entry?.originalSource || entry.originalLine === undefined || entry.originalColumn === undefined)
    return undefined;
  const source = entry.originalSource.startsWith('file:')
    ? fileURLToPath(entry.originalSource)
    : fileURLToPath(new URL(entry.originalSource, url));
  return `${relative(root, source)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
};

/** `text` with every bundle place in a log line's "at" replaced by the project's file, line and column. */
export const sourceMapped = (text: string, root: string, cache: MapCache = new Map()): string =>
  text.includes('"at":"file:')
    ? text.replace(BUNDLE_AT, (whole, url: string, line: string, column: string) => {
        const place = originalPlace(url, Number(line), Number(column), root, cache);
        return place ? `"at":"${place}"` : whole;
      })
    : text;
