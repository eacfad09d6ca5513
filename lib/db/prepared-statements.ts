// Named prepared statements for a few hot statements on PostgreSQL (the pg adapter's
// statementNameGenerator, database.ts): each connection parses such a statement once, and
// PostgreSQL may then keep one generic plan for it instead of planning it on every execution.

/** The prefix of a statement to prepare: one run often, whose text takes few distinct values. */
export const PREPARED = "/* prepared */ ";

/**
 * At most this many distinct texts get a name (each a prepared statement and a cached plan on
 * every pooled connection); any text past them runs unnamed, as every other statement does.
 */
const MAX_NAMED = 32;
/**
 * The named texts by length: each request builds its text anew, and a Map keyed by the text would
 * hash all of it (some 3 kB for the feed) on every run; a comparison with the few texts of one
 * length stops at the first differing character and is a plain memory compare when they match.
 */
const namesByLength = new Map<number, { sql: string; name: string }[]>();
let named = 0;

/** The name of `sql`'s prepared statement, or undefined (unnamed) when it is not marked PREPARED. */
export function statementName({ sql }: { sql: string }): string | undefined {
  if (!sql.startsWith(PREPARED)) return undefined;
  const sameLength = namesByLength.get(sql.length);
  if (sameLength) for (const entry of sameLength) if (entry.sql === sql) return entry.name;
  if (named >= MAX_NAMED) return undefined;
  const entry = { sql, name: `prepared_${named++}` };
  if (sameLength) sameLength.push(entry);
  else namesByLength.set(sql.length, [entry]);
  return entry.name;
}
