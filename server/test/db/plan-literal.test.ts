/**
 * planLiteral writes a closed set's value into the SQL (db/plan-literal.ts); it must never let
 * anything else in, since a value written into SQL text is not escaped by a parameter.
 */
import { Kysely, PostgresDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { fitsPlanLiteral, planLiteral, planLiterals } from '../../src/db/plan-literal.js';

// A builder only, to compile SQL text: it never connects.
const db = new Kysely<Record<string, Record<string, unknown>>>({
  dialect: new PostgresDialect({ pool: {} as never }),
});
const text = (where: ReturnType<typeof sql>) => where.compile(db);

describe('planLiteral', () => {
  it('writes a status or a whole number into the text, with no parameter', () => {
    const compiled = text(
      sql`status = ${planLiteral('pending_payment')} and kind = ${planLiteral('escpos-tcp')} and n = ${planLiteral(1)}`,
    );
    expect(compiled.sql).toBe(`status = 'pending_payment' and kind = 'escpos-tcp' and n = 1`);
    expect(compiled.parameters).toEqual([]);
  });

  it('refuses anything that is not a plain word or a whole number', () => {
    for (const value of ["paid' or '1'='1", 'a b', '', '状态', 'x'.repeat(65)]) {
      expect(fitsPlanLiteral(value)).toBe(false);
      expect(() => planLiteral(value)).toThrow(/closed set/);
    }
    for (const value of [1.5, Number.NaN, 2 ** 53]) expect(() => planLiteral(value)).toThrow(/closed set/);
  });

  it('writes a set of values sorted and once each, so any spelling of one set is one text', () => {
    const one = text(sql`status in (${sql.join(planLiterals(['pickedUp', 'assigned', 'pickedUp']))})`);
    const other = text(sql`status in (${sql.join(planLiterals(['assigned', 'pickedUp']))})`);
    expect(one.sql).toBe(`status in ('assigned', 'pickedUp')`);
    expect(other.sql).toBe(one.sql);
  });
});
