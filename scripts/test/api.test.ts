// The public API is what the packages' exports maps publish, and docs/api.md says what each name
// is: this test fails when the two disagree (a name exported but not documented, or documented but
// not exported), as the MCP TypeScript SDK's barrel test does. It reads the declarations the build
// writes (npm test builds first), so types count as much as values. A new subpath or name needs
// only its line in docs/api.md. `agent-functions/internal` is the CLI's and is not documented.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from './repo.ts';

const PACKAGES = ['src', 'scripts'];
/** Subpaths for the workspace's own packages only, never a project's import. */
const INTERNAL = new Set(['agent-functions/internal']);

interface Entry {
  subpath: string;
  declarations: string;
}

const readJson = (path: string): { name: string; exports: Record<string, { types?: string } | string> } =>
  JSON.parse(readFileSync(path, 'utf8'));

/** Every subpath of the packages' exports maps with a declaration file, as `package/sub`. */
const entries = (): Entry[] =>
  PACKAGES.flatMap((folder) => {
    const manifest = readJson(join(PROJECT_ROOT, folder, 'package.json'));
    return Object.entries(manifest.exports).flatMap(([key, target]) =>
      typeof target === 'object' && target.types
        ? [{ subpath: `${manifest.name}${key.slice(1)}`, declarations: join(PROJECT_ROOT, folder, target.types) }]
        : [],
    );
  });

/** The names a declaration file exports: its `export { ... }` lists and its exported declarations. */
const exportedNames = (dts: string): string[] => {
  const names = new Set<string>();
  for (const list of dts.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)) {
    for (const item of (list[1] ?? '').split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (name) names.add(name);
    }
  }
  const declared =
    /^export\s+(?:declare\s+)?(?:abstract\s+)?(?:const|let|function|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/gm;
  for (const match of dts.matchAll(declared)) names.add(match[1] as string);
  return [...names].sort();
};

/** docs/api.md by section: each `## \`subpath\`` heading and the names its bullets open with. */
const documentedNames = (markdown: string): Map<string, string[]> => {
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of markdown.split('\n')) {
    const heading = /^## `([^`]+)`$/.exec(line);
    if (heading) {
      current = [];
      sections.set(heading[1] as string, current);
    } else if (line.startsWith('## ')) {
      current = undefined;
    } else if (current && line.startsWith('- `')) {
      // A bullet opens with the names it documents, in backticks, before its first colon.
      const colon = line.search(/[`*]:\s/);
      const head = colon < 0 ? line : line.slice(0, colon + 1);
      for (const code of head.matchAll(/`([^`]+)`/g)) current.push((code[1] as string).replace(/[(<].*$/, ''));
    }
  }
  return sections;
};

const apiDoc = readFileSync(join(PROJECT_ROOT, 'docs', 'api.md'), 'utf8');

describe('the public API and docs/api.md', () => {
  it('reads the names of a declaration file and of a docs section', () => {
    expect(
      exportedNames(
        'import { A } from "./a.js";\nexport declare const b: () => void;\nexport { A, type C, d as e };\nexport interface F {}',
      ),
    ).toEqual(['A', 'C', 'F', 'b', 'e']);
    const doc = documentedNames(
      '## `pkg/sub`\n\nWhat it is.\n\n- `f(x, y)`, `G<typeof f>` *(type)*: what they do: `h` is not a name here.\n## Other\n- `i`: no',
    );
    expect(doc).toEqual(new Map([['pkg/sub', ['f', 'G']]]));
  });

  const docs = documentedNames(apiDoc);
  const published = entries().filter((entry) => !INTERNAL.has(entry.subpath));

  it('documents every subpath the packages export, and no other', () => {
    expect([...docs.keys()].sort()).toEqual(published.map((entry) => entry.subpath).sort());
  });

  for (const { subpath, declarations } of published) {
    it(`documents exactly the names ${subpath} exports`, () => {
      const exported = exportedNames(readFileSync(declarations, 'utf8'));
      const documented = docs.get(subpath) ?? [];
      expect({ undocumented: exported.filter((name) => !documented.includes(name)) }).toEqual({ undocumented: [] });
      expect({ notExported: documented.filter((name) => !exported.includes(name)) }).toEqual({ notExported: [] });
      expect(new Set(documented).size).toBe(documented.length);
    });
  }

  it('names every export: no `export *` in the packages', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        if (entry === 'node_modules' || entry === 'dist') continue;
        const path = join(dir, entry);
        if (statSync(path).isDirectory()) walk(path);
        else if (entry.endsWith('.ts') && /^export\s+(type\s+)?\*/m.test(readFileSync(path, 'utf8')))
          offenders.push(path.slice(PROJECT_ROOT.length));
      }
    };
    for (const folder of PACKAGES) walk(join(PROJECT_ROOT, folder));
    expect(offenders).toEqual([]);
  });
});
