import { describe, expect, it } from 'vitest';
import { renderMarkdown, renderTable, signed, type Table } from '../src/table.ts';

const table: Table = {
  title: 'Example',
  columns: ['call', 'req/s', 'ratio'],
  rows: [
    ['valid', 1234.5678, '0.95x'],
    ['a|b', Number.NaN, null],
    ['small', 3.25159, '1.00x'],
  ],
  notes: ['measured twice'],
};

describe('bench tables', () => {
  it('right-aligns number columns and left-aligns text columns', () => {
    const lines = renderTable(table).split('\n');
    expect(lines[0]).toBe('Example');
    expect(lines[1]).toBe('call   req/s  ratio');
    expect(lines[3]).toBe('valid   1235  0.95x');
    expect(lines[5]).toBe('small   3.25  1.00x');
  });

  it('shows n/a for numbers that could not be measured and - for empty cells', () => {
    expect(renderTable(table).split('\n')[4]).toBe('a|b      n/a  -');
  });

  it('prints a difference with its sign, a saving as minus rather than "+-"', () => {
    expect(signed(0.35)).toBe('+0.35');
    expect(signed(-0.11)).toBe('-0.11');
    expect(signed(0)).toBe('+0');
  });

  it('prints notes under the table', () => {
    expect(renderTable(table).endsWith('  measured twice')).toBe(true);
  });

  it('writes Markdown with escaped pipes and right-aligned number columns', () => {
    const markdown = renderMarkdown(table).split('\n');
    expect(markdown[0]).toBe('**Example**');
    expect(markdown[2]).toBe('| call | req/s | ratio |');
    expect(markdown[3]).toBe('| --- | ---: | --- |');
    expect(markdown[5]).toBe('| a\\|b | n/a | - |');
    expect(markdown.at(-1)).toBe('- measured twice');
  });
});
