import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lintFunctions } from '../../lint/index.ts';
import { RULES } from '../../lint/ruleList.ts';
import type { LintFunction } from '../../lint/types.ts';
import { PROJECT_ROOT } from '../repo.ts';
import { goodDefinition, registered } from './registered.ts';

// Every rule must be shown to fire by some test here (or in golden.test.ts / siblings.test.ts).
const fired = new Set<string>();
const rulesOf = (fns: LintFunction[]) => {
  const report = lintFunctions(fns);
  for (const f of report.findings) fired.add(f.rule);
  return report.findings.map((f) => f.rule);
};
const good = goodDefinition();
const phrase = (description: string) => ({ ...good, description });

describe('agent-functions lint functions: the rules on one function', () => {
  it('finds nothing in a function that says what it does, when (and when not) to call it, and describes its parameter', () => {
    expect(rulesOf([registered('lookup_order', good)])).toEqual([]);
  });

  it('quotes the exact text, says how to fix it and names the parameter', () => {
    const fn = registered('lookup_order', { ...good, parameters: z.object({ orderNumber: z.string() }) });
    const { findings } = lintFunctions([fn]);
    fired.add('param-undescribed');
    expect(findings).toContainEqual({
      rule: 'param-undescribed',
      severity: 'error',
      category: 'parameters',
      function: 'lookup_order',
      parameter: 'orderNumber',
      text: '- orderNumber (required, string)',
      message: '"orderNumber" has no description.',
      fix: expect.stringContaining('.describe('),
    });
  });

  it('refuses a purpose that restates the name, a vague opening and one that matches another name', () => {
    expect(rulesOf([registered('lookup_order', phrase(`Looks up an order. ${good.description}`))])).toContain(
      'purpose-restates-name',
    );
    const vague = `Handles orders for the shop and their delivery. ${good.description.split('. ').slice(1).join('. ')}`;
    expect(rulesOf([registered('lookup_order', phrase(vague))])).toContain('purpose-vague');
    expect(rulesOf([registered('reserve_table', good)])).toContain('purpose-off-name');
  });

  it('wants a sentence saying when to call it, and one saying when not', () => {
    const noWhen = "Looks up the status of the customer's order: whether it is being prepared or delivered.";
    expect(rulesOf([registered('lookup_order', phrase(noWhen))])).toEqual(
      expect.arrayContaining(['when-missing', 'when-not-missing']),
    );
  });

  it('checks what a write says it changes against effect and the MCP annotations', () => {
    const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true };
    expect(rulesOf([registered('lookup_order', { ...good, annotations: write })])).toContain('write-unstated');
    const sends = phrase(
      'Sends the customer a coupon by email. Call it when the customer asks for a discount. Not for refunds.',
    );
    expect(rulesOf([registered('send_coupon', { ...sends, annotations: { readOnlyHint: true } })])).toContain(
      'effect-conflict',
    );
    expect(rulesOf([registered('lookup_order', good, 'write')])).toContain('effect-conflict');
    expect(rulesOf([registered('lookup_order', { ...good, annotations: undefined })])).toContain('annotations-missing');
    const cancel = phrase(
      'Cancels the order before it ships. Call it when the customer asks to cancel. Never after shipping.',
    );
    const notDestructive = { ...cancel, annotations: { ...write, destructiveHint: false } };
    expect(rulesOf([registered('cancel_order', notDestructive)])).toContain('effect-conflict');
    const once = { ...sends, annotations: { readOnlyHint: false, idempotentHint: false } };
    expect(rulesOf([registered('send_coupon', once)])).toContain('repeat-unstated');
  });

  it("reads the effect a definition declares from the Worker's manifest: a write that only says what it reads is flagged", () => {
    const { annotations: _, ...noHints } = good;
    const rules = rulesOf([registered('lookup_order', { ...noHints, effect: 'write' })]);
    expect(rules).toEqual(expect.arrayContaining(['write-unstated', 'repeat-unstated']));
    expect(rules).not.toContain('annotations-missing');
  });

  it('wants each parameter described beyond its name, constrained, its values an enum and its format shown', () => {
    const parameters = z.object({
      orderNumber: z.string().describe('Order number'),
      note: z.string().describe('What the customer wants to add to the delivery'),
      billing: z.string().describe('Either monthly or yearly'),
      phone: z.string().max(32).describe("The customer's phone number"),
      code: z
        .string()
        .regex(/^[A-Z]{3}$/)
        .describe('The three-letter store code of the branch'),
    });
    expect(rulesOf([registered('lookup_order', { ...good, parameters })])).toEqual(
      expect.arrayContaining([
        'param-restates-name',
        'param-unconstrained',
        'choices-in-prose',
        'format-unexampled',
        'error-no-example',
      ]),
    );
    const odd = { ...registered('lookup_order', good), parameters: { 'order-number': 'string' } };
    expect(rulesOf([odd])).toContain('parameter-name-invalid');
  });

  it('keeps the registered description within the platform budget of 1,024 characters and reports the set size', () => {
    const long = phrase(`${good.description} ${'It reads the order from the shop. '.repeat(30)}`);
    expect(rulesOf([registered('lookup_order', long)])).toContain('description-too-long');
    const near = phrase(`${good.description} ${'It reads the order from the shop. '.repeat(18)}`);
    expect(rulesOf([registered('lookup_order', near)])).toContain('description-near-limit');
    const many = Array.from({ length: 129 }, (_, i) => ({
      ...registered('lookup_order', good),
      name: `get_order_${i}`,
    }));
    const report = lintFunctions(many);
    for (const f of report.findings) fired.add(f.rule);
    expect(report.findings.map((f) => f.rule)).toContain('set-too-large');
    expect(report.totalCharacters).toBe(many.reduce((sum, fn) => sum + fn.description.length, 0));
    expect(report.approxTokens).toBe(Math.ceil(report.totalCharacters / 4));
  });

  it('checks names: the platform rule, and a name that says what it acts on', () => {
    expect(rulesOf([{ ...registered('lookup_order', good), name: 'Get-Order' }])).toContain('name-invalid');
    expect(rulesOf([{ ...registered('lookup_order', good), name: 'handle' }])).toContain('name-vague');
  });

  it("refuses the scaffold's placeholder and nothing else about it", async () => {
    const { PLACEHOLDER_DESCRIPTION } = await import('agent-functions/worker');
    expect(rulesOf([registered('lookup_order', phrase(PLACEHOLDER_DESCRIPTION))])).toEqual(['placeholder']);
  });

  afterAll(() => {
    const perFunction = RULES.filter((r) => !['siblings', 'golden'].includes(r.category)).map((r) => r.id);
    expect(perFunction.filter((id) => !fired.has(id))).toEqual([]);
  });
});

describe('the rule list', () => {
  it('has unique, stable ids, each with a category, a severity and what it checks', () => {
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
    for (const rule of RULES) expect(rule.checks.length, rule.id).toBeGreaterThan(10);
  });

  it('is documented rule by rule, with each severity, in docs/descriptions.md', () => {
    const docs = readFileSync(join(PROJECT_ROOT, 'docs', 'descriptions.md'), 'utf8');
    for (const rule of RULES) expect(docs, rule.id).toContain(`| \`${rule.id}\` | ${rule.severity} |`);
  });
});
