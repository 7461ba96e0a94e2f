/**
 * The wire JSON that SQLite writes for list pages (sqlite-json.ts) is the wire row that
 * `toWireRow` makes of the same stored row, for every resource and for stored values the engine
 * would never write (times before 1970 and after 9999, fractions, text in number columns, blobs,
 * infinity, JSON that is not JSON).
 */
import { RESOURCES } from '@wanxiang/core';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { registerWireFunctions, WIRE_JSON, wireJsonSql } from '../../src/resources/sqlite-json.js';
import { type DbRow, modelOf, toWireRow } from '../../src/resources/storage.js';
import { g, someMs, someStored } from './stored-values.js';

const db = new Database(':memory:');
registerWireFunctions(db);
afterAll(() => db.close());

const quote = (name: string) => `"${name}"`;

/** A stored value, now and then one no engine write makes. */
function oddOrStored(field: Parameters<typeof someStored>[0]): unknown {
  const r = g.next();
  if (r < 0.03) return Buffer.from('blob 值');
  if (r < 0.05)
    return g.pick([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 60, -(2 ** 60), 1e300]);
  if (r < 0.07) return g.pick(['', ' 12 ', '0x10', 'true', '1.5e3', '[1,2]']);
  return someStored(field);
}

describe('wire JSON written by SQLite', () => {
  for (const def of RESOURCES.filter((r) => modelOf(r).hasTable)) {
    it(`${def.name}: every row as toWireRow makes it`, () => {
      const model = modelOf(def);
      const table = `t_${model.table}`;
      const columns = [
        'id integer primary key',
        'created_at bigint',
        'updated_at bigint',
        ...model.stored.map(
          (fs) => `${quote(fs.column as string)} ${fs.type === 'double' ? 'double precision' : fs.type}`,
        ),
      ];
      db.exec(`create table ${table} (${columns.join(', ')})`);
      const names = ['id', 'created_at', 'updated_at', ...model.stored.map((fs) => fs.column as string)];
      const insert = db.prepare(
        `insert into ${table} (${names.map(quote).join(', ')}) values (${names.map(() => '?').join(', ')})`,
      );
      for (let id = 1; id <= 300; id++) {
        const times = [someMs(), g.next() < 0.05 ? g.pick(['not a time', 1.5, null]) : someMs()];
        insert.run(id, ...times, ...model.stored.map((fs) => oddOrStored(fs.field)));
      }
      const stored = db.prepare(`select * from ${table} order by id`).all() as DbRow[];
      const written = db
        .prepare(`select ${wireJsonSql(model)} as ${WIRE_JSON} from ${table} order by id`)
        .pluck()
        .all() as string[];
      expect(written).toHaveLength(stored.length);
      stored.forEach((row, i) => {
        const expected = JSON.parse(JSON.stringify(toWireRow(model, row)));
        expect(JSON.parse(written[i] as string), `${def.name} #${row.id}`).toEqual(expected);
      });
    });
  }
});
