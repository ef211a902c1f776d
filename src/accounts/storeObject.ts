// Where stored accounts live (wrangler.toml binds it as ACCOUNT_STORE): one Durable Object per
// account name, holding that account's sealed record (src/accounts/seal.ts) and never a plaintext:
// it does not know ACCOUNTS_SECRET. One more instance, INDEX_NAME, keeps the names for listing.
// Strongly consistent, so a rotation or a removal takes effect at the next read of the record.
import { DurableObject } from 'cloudflare:workers';

/** The instance that lists the stored accounts' names; no account name starts with "_" (ACCOUNT_NAME). */
export const INDEX_NAME = '_index';

/** One account's record as the store holds it: sealed, and when it was written. */
export interface SealedRecord {
  blob: string;
  updatedAt: number;
}

/** A stored account's sealed record, or the index of names. */
export class AccountStore extends DurableObject {
  /**
   * Whether `table` exists. Tables are made by the first write, never by a read: a look-up of a name
   * nobody stored (an unsigned delivery to /events/<any name>) leaves no storage behind.
   */
  private hasTable(table: 'record' | 'names'): boolean {
    return (
      this.ctx.storage.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table).toArray()
        .length > 0
    );
  }

  /** This account's sealed record, if any. */
  read(): SealedRecord | null {
    if (!this.hasTable('record')) return null;
    const [row] = this.ctx.storage.sql
      .exec<{ blob: string; updated_at: number }>('SELECT blob, updated_at FROM record WHERE id = 1')
      .toArray();
    return row ? { blob: row.blob, updatedAt: row.updated_at } : null;
  }

  /** Replaces this account's record (a rotation is a write). */
  write(record: SealedRecord): void {
    this.ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS record (id INTEGER PRIMARY KEY CHECK (id = 1), blob TEXT NOT NULL, updated_at INTEGER NOT NULL)',
    );
    this.ctx.storage.sql.exec(
      'INSERT INTO record (id, blob, updated_at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET blob = excluded.blob, updated_at = excluded.updated_at',
      record.blob,
      record.updatedAt,
    );
  }

  /** Removes this account's record; true when there was one. */
  remove(): boolean {
    const had = this.read() !== null;
    if (had) this.ctx.storage.sql.exec('DELETE FROM record');
    return had;
  }

  /** On the index instance: notes `name` as stored (with `updatedAt`), or as gone (null). */
  note(name: string, updatedAt: number | null): void {
    this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS names (name TEXT PRIMARY KEY, updated_at INTEGER NOT NULL)');
    if (updatedAt === null) this.ctx.storage.sql.exec('DELETE FROM names WHERE name = ?', name);
    else {
      this.ctx.storage.sql.exec(
        'INSERT INTO names (name, updated_at) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET updated_at = excluded.updated_at',
        name,
        updatedAt,
      );
    }
  }

  /** On the index instance: whether `name` is stored (looked up first, so no name a stranger chose creates an instance). */
  has(name: string): boolean {
    if (!this.hasTable('names')) return false;
    return this.ctx.storage.sql.exec('SELECT 1 FROM names WHERE name = ?', name).toArray().length > 0;
  }

  /** On the index instance: the stored accounts' names and when each was written, by name (a page of them with `limit`). */
  list(query: { after?: string | undefined; prefix?: string | undefined; limit?: number | undefined } = {}): {
    name: string;
    updatedAt: number;
  }[] {
    if (!this.hasTable('names')) return [];
    const prefix = query.prefix ?? '';
    // A prefix is compared as text, not with LIKE: "_" and "%" in a name are plain characters.
    return this.ctx.storage.sql
      .exec<{ name: string; updated_at: number }>(
        'SELECT name, updated_at FROM names WHERE name > ? AND substr(name, 1, ?) = ? ORDER BY name LIMIT ?',
        query.after ?? '',
        prefix.length,
        prefix,
        query.limit ?? -1,
      )
      .toArray()
      .map((row) => ({ name: row.name, updatedAt: row.updated_at }));
  }
}
