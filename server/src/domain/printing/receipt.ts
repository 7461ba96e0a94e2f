/**
 * What a receipt says, apart from how it is laid out: an order's receipt and the test page, as
 * plain values (money in fen, times already China time text), made from the stored rows.
 */
import { chinaDateTime, enumLabel, getResource } from '@wanxiang/core';
import type { WireRow } from '../../resources/storage.js';
import type { PaperWidth } from './gbk-text.js';

export interface ReceiptItem {
  name: string;
  /** The chosen specification (规格), if any. */
  sku: string | null;
  qty: number;
  /** qty × unit price. */
  amountFen: number;
}

/** The order's amounts; a discount is a positive amount taken off. */
export interface ReceiptTotals {
  goodsFen: number;
  packingFen: number;
  deliveryFen: number;
  /** 会员折扣 (orders may not carry it yet: 0). */
  memberFen: number;
  /** 满减. */
  discountFen: number;
  couponFen: number;
  /** 积分抵扣 (orders may not carry it yet: 0). */
  pointsFen: number;
  payableFen: number;
  /** Paid: the bottom line reads 实付, else 应付. */
  paid: boolean;
}

export interface Receipt {
  storeName: string;
  orderNo: string;
  /** 外卖配送 / 到店自取 / 堂食. */
  fulfilment: string;
  /** When the order was placed, `YYYY-MM-DD HH:mm` China time. */
  orderedAt: string;
  items: ReceiptItem[];
  totals: ReceiptTotals;
  remark: string | null;
  /** The delivery address (delivery orders only). */
  address: string | null;
  /** What the QR code holds: the order number, for the counter's scanner. */
  qr: string;
}

export interface TestPage {
  printerName: string;
  paperWidth: PaperWidth;
  /** `YYYY-MM-DD HH:mm` China time. */
  printedAt: string;
  qr: string;
}

const orders = getResource('orders');
const FULFILMENT = orders.fields.fulfilment;

interface StoredItem {
  goodsId?: number;
  name?: string;
  sku?: string | null;
  qty?: number;
  unitPriceFen?: number;
}

const fen = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** An order's receipt (the order's wire row and its store's name). */
export function receiptOfOrder(order: WireRow, storeName: string): Receipt {
  const items = (Array.isArray(order.items) ? (order.items as StoredItem[]) : []).map((item) => {
    const qty = fen(item.qty);
    return {
      name: item.name?.trim() || `商品#${item.goodsId ?? '?'}`,
      sku: item.sku?.trim() || null,
      qty,
      amountFen: qty * fen(item.unitPriceFen),
    };
  });
  const fulfilment = typeof order.fulfilment === 'string' ? order.fulfilment : null;
  const orderNo = String(order.orderNo ?? order.id);
  return {
    storeName,
    orderNo,
    fulfilment: FULFILMENT && fulfilment ? enumLabel(FULFILMENT, fulfilment) : '',
    orderedAt: chinaDateTime(order.createdAt as string) ?? '',
    items,
    totals: {
      goodsFen: fen(order.goodsFen),
      packingFen: fen(order.packingFen),
      deliveryFen: fen(order.deliveryFen),
      // Read when the order carries them (the order work adds them); absent means none.
      memberFen: fen(order.memberFen),
      discountFen: fen(order.discountFen),
      couponFen: fen(order.couponFen),
      pointsFen: fen(order.pointsFen),
      payableFen: fen(order.payableFen),
      paid: order.paidAt !== null && order.paidAt !== undefined,
    },
    remark: typeof order.remark === 'string' && order.remark.trim() ? order.remark : null,
    address:
      fulfilment === 'delivery' && typeof order.address === 'string' && order.address.trim()
        ? order.address
        : null,
    qr: orderNo,
  };
}
