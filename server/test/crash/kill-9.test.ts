/**
 * `kill -9` under a write load (issue 18), on each database: the built server as a real process,
 * four clients placing and paying orders by balance, adjusting balances and uploading images,
 * and the process killed with SIGKILL at a random moment three times, each time started again
 * on the same database (and data folder).
 *
 * What a user may rely on afterwards, asserted on every write the server acknowledged (a 2xx
 * with the id): the order exists, and a payment acknowledged left it paid; the ledger entry of an
 * adjustment exists with its amount; an uploaded image is served with the same bytes. And the
 * books balance: every balance is the sum of its ledger rows and never negative, every order paid
 * by balance has its one debit. Each start is clean: it answers, and logs no error.
 *
 * Writes whose answer never came (cut by the kill) may or may not have happened; nothing is
 * asserted about them beyond the books balancing. Waits are on conditions, never on time.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltServer,
  startBuiltServer,
  TEST_ADMIN_PASSWORD,
  TEST_CAPTCHA_CODE,
} from '../../../testing/built-server.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/connect.js';
import type { AnyDb } from '../../src/resources/extensions.js';
import { ledgerProblems } from '../backup/helpers.js';
import { createTestDatabase, DB_KINDS, type TestDatabase } from '../helpers/app.js';

const KILLS = 3;
const CLIENTS = 4;

interface Acknowledged {
  orders: Map<number, { payableFen: number; paid: boolean }>;
  adjustments: Map<number, number>;
  uploads: Map<string, string>;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function call(
  url: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: { success: boolean; data?: Record<string, unknown>; message?: string } }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as never };
}

async function signIn(url: string): Promise<string> {
  const captcha = (await (await fetch(`${url}/api/captcha/request`)).json()) as { captchaId: string };
  const res = await fetch(`${url}/api/login/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: 'admin',
      password: TEST_ADMIN_PASSWORD,
      captchaId: captcha.captchaId,
      captchaCode: TEST_CAPTCHA_CODE,
    }),
  });
  const body = (await res.json()) as { success: boolean; data: { token: string } };
  if (!body.success) throw new Error(`sign-in failed: ${JSON.stringify(body)}`);
  return body.data.token;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/** A pino line at level error (50) or fatal (60). */
const errorLines = (output: string) => output.split('\n').filter((line) => /"level":(50|60)/.test(line));

describe.each(DB_KINDS)('kill -9 under a write load on %s', (kind) => {
  let db: TestDatabase;
  let server: BuiltServer;
  let handle: DatabaseHandle | null = null;
  const env = (): Record<string, string> =>
    kind === 'postgres' && db.database.dialect === 'postgres' ? { DATABASE_URL: db.database.url } : {};

  beforeAll(async () => {
    db = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await handle?.close();
    await server?.stop();
    await db?.drop();
  });

  it('keeps every acknowledged write and balanced books across three kills', async () => {
    server = await startBuiltServer(env(), { dataDir: db.dataDir });
    const token = await signIn(server.url);
    const setup = (method: string, path: string, body?: unknown) =>
      call(server.url, token, method, path, body).then((r) => {
        if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.json)}`);
        return r.json.data as Record<string, unknown>;
      });
    const store = await setup('POST', '/api/admin/stores', {
      name: '崩溃测试面馆',
      phone: '010-12345678',
      address: '北京市朝阳区建国路 1 号',
      minOrderFen: 0,
    });
    const category = await setup('POST', '/api/admin/goodsCategories', { storeId: store.id, name: '面食' });
    if (store.status !== 'open') await setup('POST', `/api/admin/stores/${store.id}/open`, {});
    const goods = await setup('POST', '/api/admin/goods', {
      storeId: store.id,
      categoryId: category.id,
      name: '牛肉面',
      priceFen: 2800,
      stock: 1_000_000,
    });
    if (goods.status !== 'onSale') await setup('POST', `/api/admin/goods/${goods.id}/putOn`, {});
    const users = await setup('GET', '/api/admin/users?q=guest&limit=5');
    const customer = (users.results as { id: number; username: string }[]).find(
      (u) => u.username === 'guest',
    )?.id;
    expect(customer).toBeTypeOf('number');
    await setup('POST', '/api/admin/balanceLedger/adjust', {
      userId: customer,
      changeFen: 50_000_000,
      note: '崩溃测试充值',
    });

    const ack: Acknowledged = { orders: new Map(), adjustments: new Map(), uploads: new Map() };
    let gate = deferred<string>();
    gate.resolve(server.url);
    let ready = gate.promise;
    let running = true;
    let uploadNo = 0;
    /** Requests cut by a kill (their writes may or may not have happened). */
    let cut = 0;
    let acknowledgedSinceStart = 0;
    let progress = deferred<void>();

    const acknowledged = () => {
      acknowledgedSinceStart++;
      progress.resolve();
    };

    const one = async (client: number, step: number) => {
      const url = await ready;
      const op = (client + step) % 4;
      if (op <= 1) {
        const placed = await call(url, token, 'POST', '/api/admin/orders', {
          storeId: store.id,
          userId: customer,
          items: [{ goodsId: goods.id, qty: 1 + (step % 3) }],
          fulfilment: 'pickup',
          payMethod: 'balance',
        });
        if (placed.status !== 200) return;
        const order = placed.json.data as { id: number; payableFen: number };
        ack.orders.set(order.id, { payableFen: order.payableFen, paid: false });
        acknowledged();
        const paid = await call(url, token, 'POST', `/api/admin/orders/${order.id}/pay`, {
          payMethod: 'balance',
        });
        if (paid.status === 200) {
          ack.orders.set(order.id, { payableFen: order.payableFen, paid: true });
          acknowledged();
        }
      } else if (op === 2) {
        const changeFen = step % 2 === 0 ? 700 : -300;
        const moved = await call(url, token, 'POST', '/api/admin/balanceLedger/adjust', {
          userId: customer,
          changeFen,
          note: `负载 ${client}-${step}`,
        });
        if (moved.status === 200) {
          ack.adjustments.set(Number((moved.json.data as { entryId: number }).entryId), changeFen);
          acknowledged();
        }
      } else {
        const n = ++uploadNo;
        const png = await sharp({
          create: {
            width: 8 + (n % 16),
            height: 8,
            channels: 3,
            background: { r: n % 256, g: (n >> 8) % 256, b: 77 },
          },
        })
          .png()
          .toBuffer();
        const form = new FormData();
        form.append('file', new Blob([png], { type: 'image/png' }), `crash-${n}.png`);
        const res = await fetch(`${url}/api/admin/uploads?resource=photos`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        });
        if (res.status === 200) {
          const body = (await res.json()) as { data: { url: string } };
          ack.uploads.set(body.data.url, sha256(png));
          acknowledged();
        }
      }
    };

    const clients = Array.from({ length: CLIENTS }, async (_, client) => {
      for (let step = 0; running; step++) {
        try {
          await one(client, step);
        } catch {
          // The connection was cut by the kill: not acknowledged, so not counted.
          cut++;
        }
      }
    });

    const starts: BuiltServer[] = [server];
    for (let kill = 0; kill < KILLS; kill++) {
      // A random moment: after between 15 and 60 acknowledged writes of this process.
      const target = 15 + Math.floor(Math.random() * 45);
      const deadline = Date.now() + 60_000;
      while (acknowledgedSinceStart < target) {
        if (Date.now() > deadline) throw new Error(`only ${acknowledgedSinceStart} writes acknowledged`);
        progress = deferred<void>();
        await Promise.race([progress.promise, new Promise((r) => setTimeout(r, 1000))]);
      }
      gate = deferred<string>();
      ready = gate.promise;
      await server.kill();
      acknowledgedSinceStart = 0;
      server = await startBuiltServer(env(), { dataDir: db.dataDir });
      starts.push(server);
      gate.resolve(server.url);
    }
    // A little load on the last process, then stop and check.
    const deadline = Date.now() + 60_000;
    while (acknowledgedSinceStart < 10 && Date.now() < deadline) {
      progress = deferred<void>();
      await Promise.race([progress.promise, new Promise((r) => setTimeout(r, 1000))]);
    }
    running = false;
    await Promise.all(clients);

    for (const start of starts) expect(errorLines(start.output())).toEqual([]);
    expect(ack.orders.size).toBeGreaterThan(0);
    expect([...ack.orders.values()].some((o) => o.paid)).toBe(true);
    expect(ack.adjustments.size).toBeGreaterThan(0);
    expect(ack.uploads.size).toBeGreaterThan(0);

    handle = openDatabase(db.database);
    const q = handle.db as unknown as AnyDb;
    const orders = (await q.selectFrom('orders').select(['id', 'status', 'paid_fen']).execute()) as {
      id: number;
      status: string;
      paid_fen: number | string | null;
    }[];
    const byId = new Map(orders.map((o) => [Number(o.id), o]));
    const lost: string[] = [];
    for (const [id, o] of ack.orders) {
      const row = byId.get(id);
      if (!row) lost.push(`order ${id} missing`);
      else if (o.paid && (row.status !== 'paid' || Number(row.paid_fen) !== o.payableFen))
        lost.push(`order ${id} acknowledged paid, found ${row.status} ${row.paid_fen}`);
    }
    const entries = (await q.selectFrom('balance_ledger').select(['id', 'change_fen']).execute()) as {
      id: number;
      change_fen: number | string;
    }[];
    const entryById = new Map(entries.map((e) => [Number(e.id), Number(e.change_fen)]));
    for (const [id, change] of ack.adjustments)
      if (entryById.get(id) !== change) lost.push(`ledger entry ${id} (${change}) missing`);
    for (const [url, hash] of ack.uploads) {
      const res = await fetch(`${server.url}${url}`);
      if (res.status !== 200) lost.push(`${url}: ${res.status}`);
      else if (sha256(new Uint8Array(await res.arrayBuffer())) !== hash) lost.push(`${url}: other bytes`);
    }
    if (process.env.CRASH_REPORT)
      console.log(
        `${kind}: ${KILLS} kills; acknowledged ${ack.orders.size} orders (${[...ack.orders.values()].filter((o) => o.paid).length} paid), ${ack.adjustments.size} adjustments, ${ack.uploads.size} uploads; ${cut} requests cut by the kills`,
      );
    expect(lost).toEqual([]);
    expect(await ledgerProblems(q)).toEqual([]);
  }, 240_000);
});
