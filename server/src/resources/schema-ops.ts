/**
 * Schema changes as data, so a migration can freeze them: `applySchemaOps` runs them on either
 * dialect, `introspectSchema` reads what a database has, and `diffSchema` says what the
 * registry's tables (`tableSpecOf`) still need. The diff drives the migration generator
 * (scripts/resource-migration.ts), the start-up drift warning and the drift test.
 */
import { type Compilable, type Kysely, sql } from 'kysely';
import type { DialectName } from '../db/connect.js';
import { idColumn } from '../db/migrations/migration.js';
import { type ColumnSpec, type IndexSpec, SQL_TYPES, type TableSpec } from './table-spec.js';

export type SchemaOp =
  | { op: 'createTable'; table: string; columns: ColumnSpec[] }
  | { op: 'addColumn'; table: string; column: ColumnSpec }
  | { op: 'createIndex'; table: string; index: IndexSpec };

// biome-ignore lint/suspicious/noExplicitAny: schema changes run against tables the typed schema does not list
type AnyDb = Kysely<any>;

/** One statement per step. */
function statementOf(db: AnyDb, dialect: DialectName, op: SchemaOp): Compilable {
  switch (op.op) {
    case 'createTable': {
      let builder = db.schema.createTable(op.table);
      for (const column of op.columns) {
        builder = builder.addColumn(column.name, SQL_TYPES[column.type], (col) => {
          if (column.primaryKey) return idColumn(dialect)(col);
          let c = col;
          if (column.notNull) c = c.notNull();
          if (column.default !== undefined) c = c.defaultTo(column.default);
          return c;
        });
      }
      return builder;
    }
    case 'addColumn': {
      const { column } = op;
      return db.schema.alterTable(op.table).addColumn(column.name, SQL_TYPES[column.type], (col) => {
        let c = col;
        // An added NOT NULL column needs a default for the rows already there.
        if (column.notNull && column.default !== undefined) c = c.notNull();
        if (column.default !== undefined) c = c.defaultTo(column.default);
        return c;
      });
    }
    case 'createIndex': {
      const { index } = op;
      let builder = db.schema
        .createIndex(index.name)
        .ifNotExists()
        .on(op.table)
        .columns(index.columns as `${string}`[]);
      if (index.unique) builder = builder.unique();
      if (index.live) builder = builder.where(sql.ref('deleted_at'), 'is', null);
      return builder;
    }
  }
}

export async function applySchemaOps(
  db: AnyDb,
  dialect: DialectName,
  ops: readonly SchemaOp[],
): Promise<void> {
  const statements = ops.map((op) => statementOf(db, dialect, op).compile());
  if (dialect === 'postgres' && statements.every((s) => s.parameters.length === 0)) {
    // One round trip for the lot (the simple query protocol takes several statements); hundreds
    // of DDL statements one by one would add a second to a first start.
    if (statements.length > 0) await sql.raw(statements.map((s) => s.sql).join(';\n')).execute(db);
    return;
  }
  for (const statement of statements) await db.executeQuery(statement);
}

export interface IntrospectedIndex {
  name: string;
  columns: string[];
  unique: boolean;
  partial: boolean;
}

export interface IntrospectedTable {
  columns: Map<string, { type: string; notNull: boolean }>;
  indexes: IntrospectedIndex[];
}

export type SchemaSnapshot = Map<string, IntrospectedTable>;

function tableOf(snapshot: SchemaSnapshot, name: string): IntrospectedTable {
  let table = snapshot.get(name);
  if (!table) {
    table = { columns: new Map(), indexes: [] };
    snapshot.set(name, table);
  }
  return table;
}

function addIndexColumn(
  table: IntrospectedTable,
  index: Omit<IntrospectedIndex, 'columns'>,
  column: string,
  desc: boolean,
) {
  let entry = table.indexes.find((i) => i.name === index.name);
  if (!entry) {
    entry = { ...index, columns: [] };
    table.indexes.push(entry);
  }
  entry.columns.push(desc ? `${column} desc` : column);
}

/** The tables, columns and indexes of the database (on PostgreSQL, of the current schema). */
export async function introspectSchema(db: AnyDb, dialect: DialectName): Promise<SchemaSnapshot> {
  const snapshot: SchemaSnapshot = new Map();
  if (dialect === 'sqlite') {
    const { rows: columns } = await sql<{ tbl: string; col: string; type: string; not_null: number }>`
      select m.name as tbl, p.name as col, lower(p.type) as type, p."notnull" as not_null
      from sqlite_master m join pragma_table_info(m.name) p
      where m.type = 'table' and m.name not like 'sqlite_%'`.execute(db);
    for (const c of columns)
      tableOf(snapshot, c.tbl).columns.set(c.col, { type: c.type, notNull: !!c.not_null });
    const { rows: indexes } = await sql<{
      tbl: string;
      idx: string;
      uniq: number;
      partial: number;
      col: string | null;
      dsc: number;
    }>`
      select m.name as tbl, il.name as idx, il."unique" as uniq, il.partial as partial,
             ii.name as col, ii."desc" as dsc
      from sqlite_master m
      join pragma_index_list(m.name) il
      join pragma_index_xinfo(il.name) ii
      where m.type = 'table' and m.name not like 'sqlite_%' and ii.key = 1
      order by m.name, il.name, ii.seqno`.execute(db);
    for (const i of indexes) {
      addIndexColumn(
        tableOf(snapshot, i.tbl),
        { name: i.idx, unique: !!i.uniq, partial: !!i.partial },
        i.col ?? '?',
        !!i.dsc,
      );
    }
    return snapshot;
  }
  const { rows: columns } = await sql<{ tbl: string; col: string; type: string; nullable: string }>`
    select table_name as tbl, column_name as col, data_type as type, is_nullable as nullable
    from information_schema.columns where table_schema = current_schema()
    order by table_name, ordinal_position`.execute(db);
  for (const c of columns)
    tableOf(snapshot, c.tbl).columns.set(c.col, { type: c.type, notNull: c.nullable === 'NO' });
  const { rows: indexes } = await sql<{
    tbl: string;
    idx: string;
    uniq: boolean;
    partial: boolean;
    col: string;
    dsc: boolean;
  }>`
    select t.relname as tbl, i.relname as idx, ix.indisunique as uniq, ix.indpred is not null as partial,
           a.attname as col, (ix.indoption[k.ord - 1] & 1) = 1 as dsc
    from pg_index ix
    join pg_class i on i.oid = ix.indexrelid
    join pg_class t on t.oid = ix.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    cross join lateral unnest(ix.indkey) with ordinality as k(attnum, ord)
    join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
    where n.nspname = current_schema()
    order by t.relname, i.relname, k.ord`.execute(db);
  for (const i of indexes) {
    addIndexColumn(
      tableOf(snapshot, i.tbl),
      { name: i.idx, unique: i.uniq, partial: i.partial },
      i.col,
      i.dsc,
    );
  }
  return snapshot;
}

const plain = (columns: readonly string[]) => columns.map((c) => c.replace(/ desc$/, '')).join(',');

export interface SchemaDiff {
  /** What would bring the database to the registry's shape. */
  ops: SchemaOp[];
  /** Differences no generated step can fix (a changed column type): a hand-written migration. */
  problems: string[];
}

export function diffSchema(specs: readonly TableSpec[], snapshot: SchemaSnapshot): SchemaDiff {
  const ops: SchemaOp[] = [];
  const problems: string[] = [];
  for (const spec of specs) {
    const table = snapshot.get(spec.table);
    if (!table) {
      ops.push({ op: 'createTable', table: spec.table, columns: spec.columns });
      for (const index of spec.indexes) ops.push({ op: 'createIndex', table: spec.table, index });
      continue;
    }
    for (const column of spec.columns) {
      const existing = table.columns.get(column.name);
      if (!existing) {
        if (column.primaryKey) problems.push(`${spec.table}: has no primary key column ${column.name}`);
        else ops.push({ op: 'addColumn', table: spec.table, column });
        continue;
      }
      const wanted = SQL_TYPES[column.type];
      // SQLite reports the declared type; an `integer primary key` is the rowid either way.
      const same =
        existing.type === wanted ||
        (column.primaryKey && existing.type.startsWith('int')) ||
        (column.type === 'integer' && existing.type === 'int');
      if (!same)
        problems.push(`${spec.table}.${column.name}: is ${existing.type}, the registry wants ${wanted}`);
    }
    for (const index of spec.indexes) {
      const byName = table.indexes.find((i) => i.name === index.name);
      if (byName) {
        if (plain(byName.columns) !== plain(index.columns) || byName.unique !== !!index.unique)
          problems.push(`${spec.table}: index ${index.name} exists with other columns`);
        continue;
      }
      // A unique constraint made another way (users.username in 0001) serves as well.
      const equivalent = table.indexes.some(
        (i) => i.unique === !!index.unique && plain(i.columns) === plain(index.columns),
      );
      if (!equivalent) ops.push({ op: 'createIndex', table: spec.table, index });
    }
  }
  return { ops, problems };
}
