import type { SqliteReader } from '../../db/sqlite-reader.js';
import { displayNames, nameReader } from '../relations.js';
import type { Batch } from './batches.js';
import { type CsvCell, listIds, NAME, NAMES, WIRE, wireIds } from './csv-columns.js';
import { csvCell, inert } from './csv-text.js';
import type { ExportSource } from './source.js';
import { WholeNames } from './whole-names.js';

/**
 * Related names remembered during one export, per relation field: an order export names each
 * customer many times, and reading a name again is a random row lookup. Dropped when the export
 * ends.
 */
const NAME_CACHE = 200_000;
/**
 * Names of one relation field looked up one by one, after which a streamed export reads the
 * related table's names all at once (into a `WholeNames`) if it has at most NAME_CACHE rows: an
 * export that met this many different customers is likely to meet most of them, and one read of
 * the whole table is several times faster than a lookup per row (../README.md, "An export's
 * memory").
 */
const WHOLE_TABLE_AFTER = 2000;

/**
 * Keeps, per relation column of the CSV, the names of the ids seen so far in the export: a
 * relation's formatted cell (what a NAME cell shows), a relation list's raw names. Names are read
 * for a whole batch at once (`load`), or — when the export streams its rows and `lookups` is a
 * connection other than the one streaming — one id at a time as a row first needs it (`fill`).
 */
export class ExportNames {
  /** Raw names by field, for the cells made from wire rows (relations kept outside the table). */
  readonly wire = new Map<string, Map<number, string | null>>();

  constructor(
    private readonly engine: ExportSource,
    private readonly reader: SqliteReader | null,
    private readonly cells: readonly CsvCell[],
    lookups: SqliteReader | null,
  ) {
    for (const cell of cells) {
      if (cell.kind !== NAME && cell.kind !== NAMES && cell.kind !== WIRE) continue;
      const names: Map<number, string | null> =
        (cell.kind === WIRE ? this.wire.get(cell.name) : undefined) ?? new Map();
      cell.names = names;
      if (cell.kind === WIRE) this.wire.set(cell.name, names);
      const field = cell.field;
      if (!lookups || cell.kind === WIRE || (field?.type !== 'relation' && field?.type !== 'relationList'))
        continue;
      const target = engine.resource(field.resource);
      const read = target ? nameReader(target, lookups) : { one: () => null, all: () => null };
      const keep = (name: string | null) => (cell.kind === NAME ? csvCell(inert(name ?? '')) : name);
      let lookedUp = 0;
      let whole: WholeNames | null = null;
      cell.fill = (id) => {
        if (++lookedUp === WHOLE_TABLE_AFTER && cell.kind === NAME) {
          const all = read.all(NAME_CACHE);
          whole = all && WholeNames.of(all, (name) => keep(name) as string);
          // The names read one by one are in the whole table too.
          if (whole) names.clear();
        }
        const known = whole?.get(id);
        if (known !== undefined) return known;
        // Not in the table (a row added since it was read, or none was read): looked up alone.
        if (names.size >= NAME_CACHE) names.clear();
        const kept = keep(read.one(id));
        names.set(id, kept);
        return kept;
      };
    }
  }

  /** Makes sure every id the batch refers to has its entry. */
  async load(batch: Batch): Promise<void> {
    for (const cell of this.cells) {
      const field = cell.field;
      if (!cell.names || !field || (field.type !== 'relation' && field.type !== 'relationList')) continue;
      const known = cell.names;
      // Room for this batch first, so nothing it needs is dropped after it was found.
      if (known.size + batch.values.length * (field.type === 'relation' ? 1 : 10) > NAME_CACHE) known.clear();
      const missing = new Set<number>();
      const note = (id: unknown) => {
        if (typeof id === 'number' && !known.has(id)) missing.add(id);
      };
      if (cell.kind === WIRE) {
        for (const row of batch.wire ?? []) for (const id of wireIds(row[cell.name])) note(id);
      } else if (cell.at >= 0) {
        for (const row of batch.values) {
          const x = row[cell.at];
          if (x === null || x === undefined) continue;
          if (cell.kind === NAME) note(Number(x));
          else for (const id of listIds(x)) note(id);
        }
      }
      if (missing.size === 0) continue;
      const target = this.engine.resource(field.resource);
      const found = target
        ? await displayNames(this.engine.db, target, [...missing], { reader: this.reader })
        : new Map<number, string>();
      for (const id of missing) {
        const name = found.get(id);
        if (cell.kind === NAME) known.set(id, csvCell(inert(name ?? '')));
        else known.set(id, name ?? null);
      }
    }
  }
}
