// A named prepared statement run on a pg connection without pg's per-execution description
// (issue 30), in a batch of such executions (statement-pipeline.ts). pg sends Describe on every
// execution of a named statement, so PostgreSQL answers a RowDescription each time and pg builds
// the column parsers and a row template anew (for the user-with-wallets statement's ~40 columns,
// more CPU than decoding its rows). Here a connection describes a statement once, the first time
// it runs there, and later executions send Bind and Execute alone (the batch ends with its Sync),
// decoding rows with the parsers and row builder of that description.
// A description holds for the connection's life: PostgreSQL fails a named statement whose
// result type would change ("cached plan must not change result type") rather than answer
// another shape; any error forgets the connection's description, so the next run describes again.
// The rows are pg's own: the same type parsers (pg.types: the pool sets no `types` of its own),
// objects with the same keys in the same order.
import type { Connection } from "pg";

/** What pg's Connection gives a query to write with (pg/lib/connection.js) and where pg's Client keeps its named statements. */
interface WireConnection {
  parsedStatements: Record<string, string | undefined>;
  submittedNamedStatements: Record<string, string | undefined>;
  parse(config: { text: string; name: string }): void;
  bind(config: { portal: string; statement: string; values: unknown[]; binary: boolean }): void;
  describe(config: { type: "P"; name: string }): void;
  execute(config: { portal: string }): void;
}

interface FieldDescription {
  name: string;
  dataTypeID: number;
  format: string;
}

type Parse = (value: unknown) => unknown;
export interface TypeParsers {
  getTypeParser(oid: number, format: "text" | "binary"): Parse;
}

export interface TypedRows<T> {
  rows: T[];
  /** the columns' type OIDs */
  types: number[];
}

/** A statement's result as described: its columns' types and a function making a row of the raw values of a DataRow. */
interface Shape {
  readonly types: number[];
  readonly build: (values: (string | null)[]) => unknown;
}

/** Each connection's described statements, by name; a connection the pool replaces takes its own with it. */
const described = new WeakMap<object, Map<string, Shape>>();
/** Shapes by their columns (names, types, formats): the same for a statement on every connection, so built once. */
const shapes = new Map<string, Shape>();

function shapeOf(fields: readonly FieldDescription[], parsers: TypeParsers): Shape {
  const format = (field: FieldDescription) => (field.format === "binary" ? "binary" : "text");
  const key = JSON.stringify(fields.map((field) => [field.name, field.dataTypeID, format(field)]));
  let shape = shapes.get(key);
  if (!shape) {
    const parse = fields.map((field) => {
      const parser = parsers.getTypeParser(field.dataTypeID, format(field));
      return field.dataTypeID === TIMESTAMPTZ && format(field) === "text" ? timestamptzParser(parser) : parser;
    });
    // A constructor assigning the columns in order: every row gets one hidden class, where pg
    // copies a template and assigns each column by name. Not an object literal: V8 may decide a
    // literal's allocation site makes long-lived objects and allocate its rows in the old
    // generation, where a finished request's row stays until a full collection and keeps its
    // values (the feed's 32 kB page text) through every scavenge, promoted (issue 30); `new`
    // has no allocation site. The prototype is Object.prototype, as pg's rows. `__proto__` is
    // defined, so it is an own property as in pg's rows. A repeated name keeps its first place
    // and its last value, as in pg's rows.
    const assignments = fields.map((field, i) => {
      const raw = format(field) === "binary" ? `Buffer.from(v[${i}])` : `v[${i}]`;
      const value = `v[${i}] === null ? null : p[${i}](${raw})`;
      return field.name === "__proto__"
        ? `Object.defineProperty(this, "__proto__", { value: ${value}, writable: true, enumerable: true, configurable: true });`
        : `this[${JSON.stringify(field.name)}] = ${value};`;
    });
    const build = new Function("p", "Buffer", `"use strict"; function Row(v) { ${assignments.join(" ")} } Row.prototype = Object.prototype; return (v) => new Row(v);`)(
      parse,
      Buffer,
    ) as Shape["build"];
    shape = { types: fields.map((field) => field.dataTypeID), build };
    shapes.set(key, shape);
  }
  return shape;
}

const TIMESTAMPTZ = 1184;

/** The digits of `text` from `start` to `end` as a number, or -1 where one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * `parser` (pg's, postgres-date: a regular expression and several more per value) with a shortcut
 * for what PostgreSQL writes in a UTC session, `YYYY-MM-DD HH:MM:SS[.ffffff]+00`, giving the same
 * Date: the same Date.UTC, the milliseconds computed as postgres-date computes them. Anything
 * else (another zone, BC, years before 100 or past 9999, infinity) goes to `parser`.
 */
export function timestamptzParser(parser: Parse): Parse {
  return (value) => {
    const text = value as string;
    const length = text.length;
    if (
      (length === 22 || (length >= 24 && length <= 29 && text.charCodeAt(19) === 46 /* . */)) &&
      text.charCodeAt(4) === 45 /* - */ &&
      text.charCodeAt(7) === 45 &&
      text.charCodeAt(10) === 32 /*   */ &&
      text.charCodeAt(13) === 58 /* : */ &&
      text.charCodeAt(16) === 58 &&
      text.endsWith("+00")
    ) {
      const year = digits(text, 0, 4);
      const month = digits(text, 5, 7);
      const day = digits(text, 8, 10);
      const hour = digits(text, 11, 13);
      const minute = digits(text, 14, 16);
      const second = digits(text, 17, 19);
      const fraction = length === 22 ? 0 : digits(text, 20, length - 3);
      if (year >= 100 && month >= 0 && day >= 0 && hour >= 0 && minute >= 0 && second >= 0 && fraction >= 0)
        return new Date(Date.UTC(year, month - 1, day, hour, minute, second, length === 22 ? 0 : 1000 * parseFloat(text.slice(19, length - 3))));
    }
    return parser(value);
  };
}

/** A TypedRows made by `new`, not a literal that V8 may pretenure (see shapeOf): it holds the rows. */
class TypedRowsResult<T> implements TypedRows<T> {
  constructor(
    readonly rows: T[],
    readonly types: number[],
  ) {}
}

/**
 * One execution of the named statement `name` (text `text`) with `values`, run in a
 * StatementBatch (statement-pipeline.ts), which ends the batch's statements with one Sync and
 * hands each its messages in order. Values are mapped as pg maps them (`prepareValue`).
 */
export class PreparedQuery<T> {
  /** read by pg's Client through the batch: it records `text` as parsed under `name` on ParseComplete, and forgets an unfinished parse on an error */
  readonly name: string;
  readonly text: string;
  /** called once: with the rows when the statement completes, or with its error */
  callback?: (error: Error | null, result?: TypedRows<T>) => void;
  private readonly values: unknown[];
  private readonly parsers: TypeParsers;
  private readonly prepareValue: (value: unknown) => unknown;
  private connection?: WireConnection;
  private shape?: Shape;
  /** the shape came from this execution's RowDescription, to remember when the execution succeeds */
  private describedNow = false;
  /** this execution wrote the statement's Parse */
  private parsing = false;
  /** made by a builtin, not a literal: no allocation site for V8 to pretenure (see shapeOf) */
  private rows: T[] = Array.of<T>();
  /** a row that failed to decode: reported when the statement ends, as pg does */
  private failure?: unknown;
  private settled = false;

  constructor(name: string, text: string, values: unknown[], pg: { types: TypeParsers; utils: { prepareValue(value: unknown): unknown } }) {
    this.name = name;
    this.text = text;
    this.values = values;
    this.parsers = pg.types;
    this.prepareValue = pg.utils.prepareValue;
  }

  /**
   * Writes Parse (the first time on this connection), Bind, Describe (unless described here
   * before) and Execute, without Sync. A value pg cannot send fails this execution alone, before
   * anything is written: the error is returned.
   */
  write(pgConnection: Connection): Error | null {
    const connection = pgConnection as unknown as WireConnection;
    const previous = connection.parsedStatements[this.name] ?? connection.submittedNamedStatements[this.name];
    if (previous !== undefined && previous !== this.text) return new Error(`Prepared statements must be unique - '${this.name}' was used for a different statement`);
    let values: unknown[];
    try {
      values = this.values.map(this.prepareValue);
    } catch (error) {
      return toError(error);
    }
    this.connection = connection;
    // parsed here before (by this or by Prisma's adapter, which names statements the same way) and described by this
    this.shape = previous === undefined ? undefined : described.get(connection)?.get(this.name);
    this.describedNow = false;
    this.parsing = previous === undefined;
    if (this.parsing) {
      connection.parse({ text: this.text, name: this.name });
      connection.submittedNamedStatements[this.name] = this.text;
    }
    connection.bind({ portal: "", statement: this.name, values, binary: false });
    if (!this.shape) connection.describe({ type: "P", name: "" });
    connection.execute({ portal: "" });
    return null;
  }

  /**
   * The batch stopped before this execution ran (an earlier statement failed, and PostgreSQL
   * skips to the Sync): a Parse it wrote never happened, so it is not left recorded as submitted.
   */
  skipped(): void {
    if (this.parsing && this.connection?.submittedNamedStatements[this.name] === this.text) delete this.connection.submittedNamedStatements[this.name];
    this.parsing = false;
    this.rows = Array.of<T>();
    this.failure = undefined;
  }

  handleRowDescription(message: { fields: FieldDescription[] }): void {
    this.shape = shapeOf(message.fields, this.parsers);
    this.describedNow = true;
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    if (this.failure !== undefined) return;
    try {
      // a guard for a server that is not the one that described the statement (a pooler re-preparing it after a migration): fail, forget, describe again
      if (this.shape?.types.length !== message.fields.length) throw new Error(`prepared statement ${this.name}: a row of ${message.fields.length} columns, described with ${this.shape?.types.length}`);
      this.rows.push(this.shape.build(message.fields) as T);
    } catch (error) {
      this.failure = error;
    }
  }

  /** CommandComplete (or EmptyQueryResponse): all its rows are here. */
  complete(): void {
    if (this.failure !== undefined) return this.fail(toError(this.failure));
    if (this.settled) return;
    this.settled = true;
    const connection = this.connection!;
    if (this.describedNow && this.shape && connection.parsedStatements[this.name] === this.text) {
      let statements = described.get(connection);
      if (!statements) described.set(connection, (statements = new Map()));
      statements.set(this.name, this.shape);
    }
    this.callback?.(null, new TypedRowsResult(this.rows, this.shape?.types ?? []));
  }

  /** An error may mean the statement changed or went: the next execution on this connection describes it again. */
  fail(error: Error): void {
    if (this.settled) return;
    this.settled = true;
    if (this.connection) described.get(this.connection)?.delete(this.name);
    this.callback?.(error);
  }
}

function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
