// A stand-in for Cloudflare's Workers Analytics Engine SQL API over real HTTP: it holds data points
// as the metrics option writes them (dataPointOf) with their sample interval, and answers the
// stats command's queries by evaluating the small SQL they use (sumIf, sum and
// quantileExactWeighted weighted by _sample_interval, conditions of = and != joined by AND and OR,
// GROUP BY columns). Anything else it answers 400, so a query outside that dialect fails the test.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CallRecord, dataPointOf } from 'agent-functions/internal';

type Point = Record<string, string | number>;

/** What the double saw of each request. */
export interface SqlRequest {
  path: string;
  authorization: string | undefined;
  sql: string;
}

/** The data point of `record`, written at `at` and kept once per `interval` points. */
export const pointOf = (record: CallRecord, at: number, interval = 1): Point => {
  const { blobs, doubles } = dataPointOf(record);
  const point: Point = { timestamp: at, _sample_interval: interval };
  blobs.forEach((blob, i) => {
    point[`blob${i + 1}`] = blob;
  });
  doubles.forEach((double, i) => {
    point[`double${i + 1}`] = double;
  });
  return point;
};

/** Splits at `separator` outside parentheses and quotes. */
const splitTop = (text: string, separator: string): string[] => {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && text.startsWith(separator, i)) {
      parts.push(text.slice(start, i).trim());
      start = i + separator.length;
      i += separator.length - 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
};

const literalOf = (text: string): string | number => {
  const quoted = /^'(.*)'$/.exec(text);
  if (quoted) return quoted[1] as string;
  const time = /^toDateTime\('(.+)'\)$/.exec(text);
  if (time) return Date.parse(`${(time[1] as string).replace(' ', 'T')}Z`);
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  throw new Error(`unsupported value ${text}`);
};

/** Whether `point` meets `condition`. */
export const evaluate = (condition: string, point: Point): boolean => {
  const ands = splitTop(condition, ' AND ');
  if (ands.length > 1) return ands.every((part) => evaluate(part, point));
  const inner = /^\((.*)\)$/s.exec(condition);
  if (inner) return splitTop(inner[1] as string, ' OR ').some((part) => evaluate(part, point));
  const atom = /^(\w+) (=|!=|>=|<) (.+)$/.exec(condition);
  if (!atom) throw new Error(`unsupported condition ${condition}`);
  const [, column, op, raw] = atom as unknown as [string, string, string, string];
  const left = point[column];
  if (left === undefined) throw new Error(`unknown column ${column}`);
  const right = literalOf(raw);
  return op === '=' ? left === right : op === '!=' ? left !== right : op === '>=' ? left >= right : left < right;
};

/** The weighted nearest-rank quantile, as quantileExactWeighted answers it. */
const quantile = (values: Array<[number, number]>, q: number): number => {
  const sorted = values.toSorted((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, w]) => sum + w, 0);
  let seen = 0;
  for (const [value, weight] of sorted) {
    seen += weight;
    if (seen >= q * total) return value;
  }
  return 0;
};

/** The answer to one query over `points`, as the SQL API's JSON format gives it (64-bit sums as strings). */
export const answer = (sql: string, points: Point[], dataset: string): { data: Point[] } => {
  const query = /^SELECT (.+?) FROM (\w+)(?: WHERE (.+?))?(?: GROUP BY (.+))? FORMAT JSON$/s.exec(sql);
  if (!query) throw new Error('unsupported query');
  const [, select, table, where, group] = query as unknown as [string, string, string, string?, string?];
  if (table !== dataset) throw new Error(`unknown table ${table}`);
  const groups = group ? splitTop(group, ', ') : [];
  const matching = points.filter((point) => where === undefined || evaluate(where, point));
  const grouped = new Map<string, Point[]>();
  // Without GROUP BY an aggregate answers one row, over nothing if need be.
  if (groups.length === 0) grouped.set(JSON.stringify([]), []);
  for (const point of matching) {
    const key = JSON.stringify(groups.map((column) => point[column]));
    grouped.set(key, [...(grouped.get(key) ?? []), point]);
  }
  const data = [...grouped.values()].map((members) => {
    const row: Point = {};
    for (const item of splitTop(select, ', ')) {
      const sumIf = /^sumIf\(_sample_interval, (.+)\) AS (\w+)$/s.exec(item);
      const sum = /^sum\(_sample_interval\) AS (\w+)$/.exec(item);
      const q = /^quantileExactWeighted\(([\d.]+)\)\((\w+), _sample_interval\) AS (\w+)$/.exec(item);
      const weight = (point: Point) => point._sample_interval as number;
      if (groups.includes(item)) row[item] = (members[0] as Point)[item] as string;
      else if (sumIf) {
        const matched = members.filter((point) => evaluate(sumIf[1] as string, point));
        row[sumIf[2] as string] = String(matched.reduce((total, point) => total + weight(point), 0));
      } else if (sum) row[sum[1] as string] = String(members.reduce((total, point) => total + weight(point), 0));
      else if (q) {
        const values = members.map((point) => [point[q[2] as string] as number, weight(point)] as [number, number]);
        row[q[3] as string] = quantile(values, Number(q[1]));
      } else throw new Error(`unsupported select ${item}`);
    }
    return row;
  });
  return { data };
};

/** The double: its url, the requests it took, and what it answers (set `failWith` to make it refuse). */
export const startSqlApi = async (dataset: string) => {
  const requests: SqlRequest[] = [];
  const state: { points: Point[]; failWith?: { status: number; body: string } } = { points: [] };
  const server: Server = createServer(async (request, response) => {
    let sql = '';
    for await (const chunk of request) sql += chunk;
    requests.push({ path: request.url ?? '', authorization: request.headers.authorization, sql });
    if (state.failWith) {
      response.writeHead(state.failWith.status, { 'content-type': 'application/json' });
      response.end(state.failWith.body);
      return;
    }
    try {
      const { data } = answer(sql, state.points, dataset);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ meta: [], data, rows: data.length }));
    } catch (error) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end(`${(error as Error).message}\n`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/client/v4`,
    requests,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
