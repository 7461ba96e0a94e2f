/**
 * A named statement run again on a connection without asking PostgreSQL to describe its rows.
 *
 * node-postgres runs every prepared statement as Bind, Describe, Execute, Sync: each run the
 * database describes the result's columns again (a RowDescription of ~40 bytes a column) and
 * the driver decodes it into a field object a column, a parser list and a template row — for an
 * order's 36 columns, most of what a one-row statement allocated. A prepared statement's columns
 * cannot change on its connection (PostgreSQL refuses the run with 0A000 "cached plan must not
 * change result type" instead; connect.ts then runs it unnamed and never names that SQL again),
 * so the first run's description is kept, per connection and statement name, and later runs
 * send Bind, Execute, Sync and parse the rows with it.
 *
 * Measured on one connection, a 30-column row by primary key: 78 → 55 µs of the server's CPU a
 * statement, 132 → 106 µs a round trip (BENCHMARKS.md, eleventh session).
 *
 * It is node-postgres' own Query with `prepare` taking the shorter way: everything else (the
 * pipeline's bookkeeping, errors, the Sync after each statement) is pg's. A subclass, because a
 * pipelined client refuses other submittables.
 */
import pg from 'pg';

/** A statement's rows as its first run described them. */
interface Description {
  fields: unknown[];
  parsers: unknown[];
  template: Record<string, unknown> | null;
}

/** The parts of pg's Query and Result this reads and sets (not in pg's type declarations). */
interface QueryInternals {
  name?: string;
  values?: unknown[];
  portal: string;
  binary?: boolean;
  rows?: number;
  callback?: (error: Error | null, result?: pg.QueryResult) => void;
  _accumulateRows: boolean;
  _result: {
    fields: unknown[];
    _parsers: unknown[] | undefined;
    _prebuiltEmptyResultObject: Record<string, unknown> | null;
  };
  hasBeenParsed(connection: unknown): boolean;
  _getRows(connection: unknown, rows: number | undefined): void;
  listeners(event: string): unknown[];
}

interface Connection {
  bind(options: Record<string, unknown>): void;
  sync(): void;
}

/** Per connection (pg's Connection object): statement name → its rows' description. */
const described = new WeakMap<object, Map<string, Description>>();

/**
 * pg's Query, made from the text and values (the name is set after): given a config object it
 * copies it property descriptor by property descriptor (utils.js cloneQueryConfig), 1–2 % of the
 * server's CPU under load.
 */
const Base = pg.Query as unknown as new (text: string, values?: unknown[]) => object;
/** pg's own mapping of a value to its text (dates, JSON, arrays), as its Query binds with. */
const prepareValue = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils
  .prepareValue;

export class LeanQuery extends Base {
  /** Whether this run asked for the description (the first on its connection). */
  private describing = false;
  private sawDescription = false;

  /** pg calls this to send the statement (Query#prepare in pg/lib/query.js). */
  prepare(connection: Connection): void {
    const self = this as unknown as QueryInternals;
    const known = self.name ? described.get(connection)?.get(self.name) : undefined;
    if (!known || !self.hasBeenParsed(connection) || self.rows) {
      this.describing = true;
      (Base.prototype as { prepare(c: Connection): void }).prepare.call(this, connection);
      return;
    }
    try {
      connection.bind({
        portal: self.portal,
        statement: self.name,
        values: self.values,
        binary: self.binary,
        valueMapper: prepareValue,
      });
    } catch (error) {
      // As pg does: a value it cannot send fails this statement alone (nothing of it was written;
      // the Sync gives its place in the pipeline the ReadyForQuery it waits for).
      connection.sync();
      this.handleError(error as Error, connection);
      return;
    }
    const result = self._result;
    result.fields = known.fields;
    result._parsers = known.parsers;
    result._prebuiltEmptyResultObject = known.template;
    self._accumulateRows = Boolean(self.callback) || self.listeners('row').length === 0;
    self._getRows(connection, undefined);
  }

  handleRowDescription(message: unknown): void {
    (Base.prototype as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, message);
    this.sawDescription = true;
  }

  handleCommandComplete(message: unknown, connection: object): void {
    const self = this as unknown as QueryInternals;
    // Kept once the statement has run through: its columns (or none: an insert without RETURNING).
    if (this.describing && self.name) {
      let byName = described.get(connection);
      if (!byName) {
        byName = new Map();
        described.set(connection, byName);
      }
      const result = self._result;
      byName.set(
        self.name,
        this.sawDescription
          ? {
              fields: result.fields,
              parsers: result._parsers ?? [],
              template: result._prebuiltEmptyResultObject,
            }
          : { fields: [], parsers: [], template: null },
      );
    }
    (Base.prototype as { handleCommandComplete(m: unknown, c: object): void }).handleCommandComplete.call(
      this,
      message,
      connection,
    );
  }

  handleError(error: Error, connection: object): void {
    // A statement that failed is described again next time (whatever failed, it costs one Describe).
    const self = this as unknown as QueryInternals;
    if (self.name && connection) described.get(connection)?.delete(self.name);
    (Base.prototype as { handleError(e: Error, c: object): void }).handleError.call(this, error, connection);
  }
}

/** Runs a named statement through `LeanQuery` on `client` (its `query` as pg gave it). */
export function leanQuery(
  query: (submittable: unknown) => unknown,
  config: { name: string; text: string; values?: unknown[] },
): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const submittable = new LeanQuery(config.text, config.values) as unknown as QueryInternals;
    submittable.name = config.name;
    submittable.callback = (error, result) => (error ? reject(error) : resolve(result as pg.QueryResult));
    query(submittable);
  });
}
