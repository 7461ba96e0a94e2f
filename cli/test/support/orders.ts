/**
 * Orders are created only by the ordering domain, which has no API yet: tests put them straight
 * into the server's SQLite file, through the server's own storage conventions (storage.ts:
 * snake_case columns, epoch-ms times, JSON text), exactly as its engine would write them. The
 * counts cache only holds totals already asked for, so insert before the first list.
 */
import { join } from 'node:path';
import { getResource } from '@wanxiang/core';
import Database from 'better-sqlite3';
import { modelOf, toDbValues } from '../../../server/src/resources/storage';

export interface OrderSeed {
  orderNo: string;
  storeId: number;
  status: string;
  createdAt: Date;
  payableFen?: number;
  address?: string;
  remark?: string | null;
}

export function insertOrders(dataDir: string, seeds: readonly OrderSeed[]): number[] {
  const model = modelOf(getResource('orders'));
  const db = new Database(join(dataDir, 'wanxiang.db'));
  db.pragma('busy_timeout = 5000');
  try {
    const ids: number[] = [];
    const insertAll = db.transaction(() => {
      let statement: Database.Statement | null = null;
      for (const seed of seeds) {
        const payable = seed.payableFen ?? 3200;
        const row = {
          ...toDbValues(model, {
            orderNo: seed.orderNo,
            storeId: seed.storeId,
            userId: null,
            items: [{ goodsId: 1, name: '招牌牛肉面', sku: '大份', qty: 1, unitPriceFen: payable }],
            goodsFen: payable,
            packingFen: 0,
            deliveryFen: 0,
            discountFen: 0,
            couponFen: 0,
            payableFen: payable,
            paidFen: seed.status === 'pending_payment' ? 0 : payable,
            refundedFen: 0,
            payMethod: 'wechat',
            fulfilment: 'delivery',
            address: seed.address ?? '北京市朝阳区建国路 88 号',
            remark: seed.remark ?? null,
            status: seed.status,
          }),
          created_at: seed.createdAt.getTime(),
          updated_at: seed.createdAt.getTime(),
        };
        statement ??= db.prepare(
          `insert into ${model.table} (${Object.keys(row).join(', ')}) values (${Object.keys(row)
            .map((c) => `@${c}`)
            .join(', ')})`,
        );
        ids.push(Number(statement.run(row).lastInsertRowid));
      }
    });
    insertAll();
    return ids;
  } finally {
    db.close();
  }
}
