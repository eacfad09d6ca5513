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
const names = new Map<string, string>();

/** The name of `sql`'s prepared statement, or undefined (unnamed) when it is not marked PREPARED. */
export function statementName({ sql }: { sql: string }): string | undefined {
  if (!sql.startsWith(PREPARED)) return undefined;
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_NAMED) names.set(sql, (name = `prepared_${names.size}`));
  return name;
}
