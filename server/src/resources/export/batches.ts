import type { ListQuery, ResourceDef } from '@wanxiang/core';
import type { CompiledQuery } from 'kysely';
import type { SqliteReader } from '../../db/sqlite-reader.js';
import { type OrderKey, orderKeys, selectPage } from '../query.js';
import { arrayRowReader, modelOf, type WireRow } from '../storage.js';
import { EXPORT_BATCH, type ExportSource } from './source.js';

export interface Batch {
  /** Stored values in the order of `columns`. */
  columns: readonly string[];
  values: unknown[][];
  /** Wire rows, when the format or the resource needs them. */
  wire: WireRow[] | null;
}

/** Reads the matching rows batch by batch, in the list's order, with keyset continuation. */
export class BatchReader {
  /** The order's values of the last row read: the next batch starts after it. */
  after: unknown[] | null = null;
  private done = false;
  private readonly keys: OrderKey[];

  constructor(
    private readonly engine: ExportSource,
    private readonly reader: SqliteReader | null,
    private readonly def: ResourceDef,
    private readonly query: ListQuery,
    private readonly needWire: boolean,
  ) {
    this.keys = orderKeys(modelOf(def), query);
  }

  /** Rows up to and including this position only (a `boundedOrder`); null: to the end. */
  until: unknown[] | null = null;

  /** Reads from just after `after` (null: the first row) to `until` from now on. */
  range(after: unknown[] | null, until: unknown[] | null): this {
    this.after = after;
    this.until = until;
    this.done = false;
    return this;
  }

  private compiled(): CompiledQuery {
    return selectPage(this.engine.db, this.engine.dialect, this.def, {
      query: this.query,
      after: this.after,
      until: this.until,
      limit: EXPORT_BATCH,
      offset: 0,
    }).compile();
  }

  /** Whether rows can be streamed one by one (`each`): on SQLite's reader, without wire rows. */
  get streams(): boolean {
    return this.reader !== null && !this.needWire;
  }

  /**
   * The next batch's rows one at a time, as SQLite steps to them (SqliteReader.each), never
   * gathered: answers how many there were, 0 at the end. Only where `streams`.
   */
  each(onRow: (values: unknown[], columns: readonly string[]) => void): number {
    if (this.done || !this.reader) return 0;
    const compiled = this.compiled();
    let last: unknown[] | null = null;
    let lastColumns: readonly string[] = [];
    const count = this.reader.each(compiled.sql, compiled.parameters, (values, columns) => {
      onRow(values, columns);
      last = values;
      lastColumns = columns;
    });
    if (count < EXPORT_BATCH) this.done = true;
    if (last) this.after = this.positionOf(last, lastColumns);
    return count;
  }

  /** The order's values of a row: where the next batch starts. */
  private positionOf(row: readonly unknown[], columns: readonly string[]): unknown[] {
    return this.keys.map((k) => {
      const v = row[columns.indexOf(k.column)];
      return typeof v === 'bigint' ? Number(v) : (v ?? null);
    });
  }

  async next(): Promise<Batch | null> {
    if (this.done) return null;
    const compiled = this.compiled();
    let columns: readonly string[];
    let values: unknown[][];
    if (this.reader) {
      ({ columns, rows: values } = this.reader.arrays(compiled.sql, compiled.parameters));
    } else {
      const rows = (await this.engine.db.executeQuery(compiled)).rows as Record<string, unknown>[];
      columns = rows.length > 0 ? Object.keys(rows[0] as object) : [];
      values = rows.map((row) => columns.map((c) => row[c]));
    }
    if (values.length < EXPORT_BATCH) this.done = true;
    if (values.length === 0) return null;
    this.after = this.positionOf(values[values.length - 1] as unknown[], columns);
    let wire: WireRow[] | null = null;
    if (this.needWire) {
      wire = values.map(arrayRowReader(modelOf(this.def), columns));
      await this.engine.extensions.hooksOf(this.def.name).loadVirtual?.(this.engine.db, wire);
    }
    return { columns, values, wire };
  }
}
