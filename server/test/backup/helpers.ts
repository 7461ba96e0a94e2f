/** Reading and rewriting backup archives in tests, and the money invariants they check. */
import { gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import type { AnyDb } from '../../src/resources/extensions.js';

export interface Member {
  name: string;
  data: Buffer;
}

export async function readMembers(archive: Buffer): Promise<Member[]> {
  const extract = tar.extract();
  const members: Member[] = [];
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        members.push({ name: header.name, data: Buffer.concat(chunks) });
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(gunzipSync(archive));
  await done;
  return members;
}

export async function writeMembers(members: readonly Member[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (c: unknown) => chunks.push(c as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  for (const m of members) pack.entry({ name: m.name, size: m.data.length }, m.data);
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(chunks));
}

/** The archive with its manifest changed by `edit` (the members' checksums still hold). */
export async function withManifest(
  archive: Buffer,
  edit: (manifest: Record<string, unknown>) => void,
): Promise<Buffer> {
  const members = await readMembers(archive);
  for (const m of members)
    if (m.name === 'manifest.json') {
      const manifest = JSON.parse(m.data.toString('utf8')) as Record<string, unknown>;
      edit(manifest);
      m.data = Buffer.from(JSON.stringify(manifest));
    }
  return writeMembers(members);
}

export async function rowCounts(db: AnyDb, tables: readonly string[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of tables) {
    const row = (await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()) as { n: number | string };
    out[table] = Number(row.n);
  }
  return out;
}

/**
 * Each user's balance against their ledger: the balance is the sum of the user's balance rows
 * (rows with a card are the card's money), never negative; every order paid by balance has its
 * one debit of the paid amount. Answers the problems found (empty when the books balance).
 */
export async function ledgerProblems(db: AnyDb): Promise<string[]> {
  const problems: string[] = [];
  const users = (await db.selectFrom('users').select(['id', 'balance_fen']).execute()) as {
    id: number;
    balance_fen: number | string;
  }[];
  const sums = (await db
    .selectFrom('balance_ledger')
    .select(['user_id', (eb) => eb.fn.sum('change_fen').as('total')])
    .where('card_id', 'is', null)
    .groupBy('user_id')
    .execute()) as { user_id: number; total: number | string }[];
  const byUser = new Map(sums.map((s) => [Number(s.user_id), Number(s.total)]));
  for (const u of users) {
    const balance = Number(u.balance_fen);
    const total = byUser.get(Number(u.id)) ?? 0;
    if (balance !== total) problems.push(`user ${u.id}: balance ${balance}, ledger sum ${total}`);
    if (balance < 0) problems.push(`user ${u.id}: negative balance ${balance}`);
  }
  const paid = (await db
    .selectFrom('orders')
    .select(['id', 'paid_fen', 'status'])
    .where('pay_method', '=', 'balance')
    .where('paid_at', 'is not', null)
    .execute()) as { id: number; paid_fen: number | string; status: string }[];
  const debits = (await db
    .selectFrom('balance_ledger')
    .select(['ref_id', 'change_fen'])
    .where('kind', '=', 'pay')
    .where('ref_type', '=', 'orders')
    .execute()) as { ref_id: number | string; change_fen: number | string }[];
  const debitOf = new Map<number, number[]>();
  for (const d of debits)
    debitOf.set(Number(d.ref_id), [...(debitOf.get(Number(d.ref_id)) ?? []), Number(d.change_fen)]);
  for (const o of paid) {
    const rows = debitOf.get(Number(o.id)) ?? [];
    if (rows.length !== 1 || rows[0] !== -Number(o.paid_fen))
      problems.push(`order ${o.id} (${o.status}) paid ${o.paid_fen}: debits ${JSON.stringify(rows)}`);
  }
  return problems;
}
