// The rows of an import file (scripts/accounts/importRows.ts): CSV and JSON read alike, each bad row
// named by its account with what is wrong, never with its key.
import { describe, expect, it } from 'vitest';
import { readImportRows } from '../../accounts/importRows.ts';

const KEY = 'pk_live_secret_value_1234';

describe('an import file', () => {
  it('reads CSV with quoted settings and headers in any spelling, and JSON the same', () => {
    const csv = `Name,API Key,Base URL,Settings\nclient-a,${KEY},https://app.a.example/,"{""timezone"":""Europe/Paris""}"\nclient-b,pk_b,,\n`;
    const json = JSON.stringify({
      accounts: [
        { name: 'client-a', key: KEY, baseUrl: 'https://app.a.example/', settings: { timezone: 'Europe/Paris' } },
        { name: 'client-b', apiKey: 'pk_b' },
      ],
    });
    for (const [text, path] of [
      [csv, 'clients.csv'],
      [json, 'clients.json'],
    ] as const) {
      const { rows, problems } = readImportRows(text, path);
      expect(problems).toEqual([]);
      expect(rows.map(({ at: _, ...row }) => row)).toEqual([
        { name: 'client-a', key: KEY, baseUrl: 'https://app.a.example', settings: { timezone: 'Europe/Paris' } },
        { name: 'client-b', key: 'pk_b', baseUrl: undefined, settings: undefined },
      ]);
    }
  });

  it('names each bad row by its account and what is wrong, never its key, and keeps the others', () => {
    const text = [
      'name,key,base url,settings',
      `client-ok,${KEY},,`,
      `client-ok,${KEY}2,,`,
      `client-space,${KEY} x,,`,
      `client-addr,${KEY}3,ftp://nowhere,`,
      `client-set,${KEY}4,,not json`,
      `client-nested,${KEY}5,,"{""bad name"": 1}"`,
      `Not A Name!,${KEY}6,,`,
    ].join('\n');
    const { rows, problems } = readImportRows(text, 'clients.csv');
    expect(rows.map((row) => row.name)).toEqual(['client-ok']);
    expect(problems.map(({ at, name, kind }) => [at, name, kind])).toEqual([
      ['line 3', 'client-ok', 'duplicate name'],
      ['line 4', 'client-space', 'bad key'],
      ['line 5', 'client-addr', 'unknown address'],
      ['line 6', 'client-set', 'invalid settings'],
      ['line 7', 'client-nested', 'invalid settings'],
      ['line 8', 'Not A Name!', 'invalid name'],
    ]);
    expect(JSON.stringify(problems)).not.toContain(KEY);
  });

  it('refuses a file that is neither CSV nor a JSON list, saying which', () => {
    expect(() => readImportRows('{"accounts": 3}', 'clients.json')).toThrow(/expected an array of accounts/);
    expect(() => readImportRows('[1,', 'clients.json')).toThrow(/is not valid JSON/);
  });
});
