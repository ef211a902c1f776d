// The linter's report as text: findings grouped by what a description must carry, then the set's size.
import { CATEGORIES, type Finding, type LintReport } from './types.ts';

const TITLES: Record<(typeof CATEGORIES)[number], string> = {
  purpose: 'Purpose',
  when: 'When to call, and when not',
  behaviour: 'Behaviour and side effects',
  parameters: 'Parameters',
  limits: 'Limits and constraints',
  'examples-and-errors': 'Examples and errors',
  names: 'Names',
  siblings: 'Confusable siblings',
  golden: 'Golden prompts',
};

const line = (f: Finding) =>
  `  ${f.severity === 'error' ? 'error  ' : f.severity === 'warning' ? 'warning' : 'info   '} ${f.function}${f.parameter ? `.${f.parameter}` : ''} [${f.rule}] ${f.message}\n      "${f.text}"\n      fix: ${f.fix}`;

/** The report as lines for a terminal; `paint` colours the severity words when given. */
export const formatReport = (
  report: LintReport,
  paint: { red?: (s: string) => string; yellow?: (s: string) => string } = {},
): string => {
  const out: string[] = [];
  for (const category of CATEGORIES) {
    const group = report.findings.filter((f) => f.category === category);
    if (group.length === 0) continue;
    out.push(`${TITLES[category]}:`);
    for (const f of group) {
      const text = line(f);
      out.push(
        f.severity === 'error'
          ? (paint.red?.(text) ?? text)
          : f.severity === 'warning'
            ? (paint.yellow?.(text) ?? text)
            : text,
      );
    }
  }
  const size = `${report.functions} function(s), ${report.totalCharacters} characters of descriptions (about ${report.approxTokens} tokens on every model turn)${report.longest ? `, longest ${report.longest.name} (${report.longest.characters})` : ''}.`;
  out.push(`${size}\n${report.errors} error(s), ${report.warnings} warning(s).`);
  return out.join('\n');
};
