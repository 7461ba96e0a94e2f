/**
 * How a receipt and the test page are laid out on the paper, as lines of text with their style
 * and the QR code — no printer bytes yet (escpos.ts), so the layout can be read and tested as
 * text. Every left-aligned line is at most the paper's columns wide (gbk-text.ts counts them as
 * the printer does); item lines and totals are exactly that wide, so names, quantities and
 * amounts stand in columns.
 *
 * The order follows the receipts kitchens and counters are used to (美团/饿了么 merchant
 * receipts): the store and the fulfilment big, the order number and time, the items, the amounts
 * with discounts as negatives, the amount to pay big, the remark big (the kitchen must not miss
 * it), the address, the order number as a QR code, then feed and cut.
 */
import { fenToYuan } from '@wanxiang/core';
import { centered, pad, printable, spread, textWidth, wrap } from './gbk-text.js';
import type { Receipt, TestPage } from './receipt.js';

export type Block =
  /** One printed line. `big`: double width and height; `tall`: double height only. */
  | { kind: 'line'; text: string; bold?: boolean; big?: boolean; tall?: boolean }
  /** A QR code, centered, holding `data` (ASCII). */
  | { kind: 'qr'; data: string };

/** `￥12.30` (GBK has no ¥: the full-width ￥ is what Chinese receipts print). */
export function yuan(fen: number): string {
  return `${fen < 0 ? '-' : ''}￥${fenToYuan(Math.abs(fen))}`;
}

const line = (text: string, style: Omit<Extract<Block, { kind: 'line' }>, 'kind' | 'text'> = {}): Block => ({
  kind: 'line',
  text,
  ...style,
});

const rule = (columns: number): Block => line('-'.repeat(columns));

/** A title centered: big when it fits in half the columns (each character twice as wide), else bold. */
function title(text: string, columns: number): Block[] {
  if (textWidth(text) * 2 <= columns) return [line(centered(text, columns / 2), { big: true })];
  return wrap(text, columns).map((part) => line(centered(part, columns), { bold: true }));
}

/** `label` then text wrapped to the width, continuation lines indented under the text. */
function labelled(
  label: string,
  text: string,
  columns: number,
  style: { bold?: boolean; tall?: boolean } = {},
) {
  const indent = textWidth(label);
  const parts = wrap(text, columns - indent);
  return parts.map((part, i) => line((i === 0 ? label : ' '.repeat(indent)) + part, style));
}

/** The item table: name (wrapped in its column), quantity and amount right-aligned. */
function itemLines(receipt: Receipt, columns: number): Block[] {
  const rows = receipt.items.map((item) => ({
    name: printable(item.sku ? `${item.name}（${item.sku}）` : item.name),
    qty: `x${item.qty}`,
    amount: yuan(item.amountFen),
  }));
  const qtyWidth = Math.max(textWidth('数量'), ...rows.map((r) => textWidth(r.qty)));
  const amountWidth = Math.max(textWidth('金额'), ...rows.map((r) => textWidth(r.amount)));
  const nameWidth = columns - qtyWidth - amountWidth - 2;
  const cells = (name: string, qty: string, amount: string) =>
    `${pad(name, nameWidth)} ${pad(qty, qtyWidth, 'right')} ${pad(amount, amountWidth, 'right')}`;
  const blocks = [line(cells('商品', '数量', '金额'))];
  for (const row of rows) {
    const [first = '', ...rest] = wrap(row.name, nameWidth);
    blocks.push(line(cells(first, row.qty, row.amount)));
    for (const more of rest) blocks.push(line(more));
  }
  return blocks;
}

/** The amounts: what the goods and fees come to, each discount taken off, and the bottom line. */
function totalLines(receipt: Receipt, columns: number): Block[] {
  const t = receipt.totals;
  const rows: [string, number][] = [['商品金额', t.goodsFen]];
  if (t.packingFen > 0) rows.push(['打包费', t.packingFen]);
  if (t.deliveryFen > 0) rows.push(['配送费', t.deliveryFen]);
  if (t.memberFen > 0) rows.push(['会员折扣', -t.memberFen]);
  if (t.discountFen > 0) rows.push(['满减', -t.discountFen]);
  if (t.couponFen > 0) rows.push(['优惠券', -t.couponFen]);
  if (t.pointsFen > 0) rows.push(['积分抵扣', -t.pointsFen]);
  return [
    ...rows.map(([label, fen]) => line(spread(label, yuan(fen), columns))),
    rule(columns),
    line(spread(t.paid ? '实付' : '应付', yuan(t.payableFen), columns), { bold: true, tall: true }),
  ];
}

export function receiptBlocks(receipt: Receipt, columns: number): Block[] {
  const blocks: Block[] = [...title(printable(receipt.storeName), columns)];
  if (receipt.fulfilment)
    blocks.push(line(centered(`【${receipt.fulfilment}】`, columns), { bold: true, tall: true }));
  blocks.push(
    rule(columns),
    ...labelled('订单号：', printable(receipt.orderNo), columns),
    ...labelled('下单时间：', receipt.orderedAt, columns),
    rule(columns),
    ...itemLines(receipt, columns),
    rule(columns),
    ...totalLines(receipt, columns),
  );
  const remark = receipt.remark ? printable(receipt.remark) : '';
  const address = receipt.address ? printable(receipt.address) : '';
  if (remark || address) blocks.push(rule(columns));
  if (remark) blocks.push(...labelled('备注：', remark, columns, { bold: true, tall: true }));
  if (address) blocks.push(...labelled('地址：', address, columns));
  blocks.push(
    rule(columns),
    { kind: 'qr', data: receipt.qr },
    line(centered(printable(receipt.orderNo), columns)),
    line(centered('谢谢惠顾，欢迎再次光临', columns)),
  );
  return blocks;
}

/** The test page: the printer's name, the paper, the time, Chinese text, a column ruler and a QR code. */
export function testPageBlocks(page: TestPage, columns: number): Block[] {
  const ruler = Array.from({ length: columns }, (_, i) => String((i + 1) % 10)).join('');
  return [
    ...title('打印测试', columns),
    rule(columns),
    ...labelled('打印机：', printable(page.printerName), columns),
    line(`纸宽：${page.paperWidth} mm（每行 ${columns} 列）`),
    line(`时间：${page.printedAt}`),
    rule(columns),
    ...labelled('中文：', '万象餐饮小票打印测试，汉字与数字 0123456789 对齐正常', columns),
    line(ruler),
    line(spread('左对齐', '右对齐', columns)),
    rule(columns),
    { kind: 'qr', data: page.qr },
    line(centered(page.qr, columns)),
    line(centered('看到这一页，说明打印机连接正常', columns)),
  ];
}
