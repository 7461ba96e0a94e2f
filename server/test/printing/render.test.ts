/**
 * The receipt and the test page as bytes, without a server: what the paper shows (GBK decoded,
 * commands taken out), the commands around it, and the columns on 58 and 80 mm paper.
 */
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { renderReceipt, renderTestPage } from '../../src/domain/printing/escpos.js';
import { printable, textWidth, wrap } from '../../src/domain/printing/gbk-text.js';
import type { Receipt } from '../../src/domain/printing/receipt.js';
import { columnsOf, count, ESC, FS, GS, printedLines, qrCodes } from './listener.js';

const receipt: Receipt = {
  storeName: '宫保鸡丁小馆',
  orderNo: 'NO20250101001',
  fulfilment: '外卖配送',
  orderedAt: '2025-01-01 16:00',
  items: [
    { name: '宫保鸡丁盖浇饭加量不加价套餐', sku: '大份', qty: 2, amountFen: 5600 },
    { name: 'Coca-Cola 可乐', sku: null, qty: 1, amountFen: 300 },
    { name: '米饭', sku: null, qty: 12, amountFen: 2400 },
  ],
  totals: {
    goodsFen: 8300,
    packingFen: 200,
    deliveryFen: 500,
    memberFen: 0,
    discountFen: 1000,
    couponFen: 500,
    pointsFen: 100,
    payableFen: 7400,
    paid: true,
  },
  remark: '不要辣，多放葱',
  address: '北京市朝阳区建国路1号院2号楼3单元401室',
  qr: 'NO20250101001',
};

const bytesOf = (paperWidth: 58 | 80, r: Receipt = receipt, copies = 1) =>
  Buffer.from(renderReceipt(r, { paperWidth, copies }));

describe('a receipt as ESC/POS bytes', () => {
  it('starts with ESC @ and Chinese mode, ends with feed and cut, and holds the order number as a native QR code', () => {
    const bytes = bytesOf(58);
    expect([...bytes.subarray(0, 2)]).toEqual([ESC, 0x40]);
    expect(count(bytes, [FS, 0x26])).toBe(1);
    // The cut comes last, after lines fed past the cutter.
    const cut = bytes.lastIndexOf(Buffer.from([GS, 0x56]));
    expect(cut).toBeGreaterThan(0);
    expect(bytes.subarray(cut - 4, cut).toString('latin1')).toBe('\n\n\n\n');
    expect(bytes.length - cut).toBeLessThanOrEqual(4);
    // GS ( k: model 2, module size, error level, store the data, print it.
    expect(count(bytes, [GS, 0x28, 0x6b, 0x04, 0x00, 0x31, 0x41, 0x32, 0x00])).toBe(1);
    expect(count(bytes, [GS, 0x28, 0x6b, 0x03, 0x00, 0x31, 0x51, 0x30])).toBe(1);
    expect(qrCodes(bytes)).toEqual(['NO20250101001']);
  });

  it('prints the store, the order number, the items in Chinese and the amounts in ￥', () => {
    const text = printedLines(bytesOf(58)).join('\n');
    for (const expected of [
      '宫保鸡丁小馆',
      '【外卖配送】',
      '订单号：NO20250101001',
      '下单时间：2025-01-01 16:00',
      'Coca-Cola 可乐',
      '米饭',
      '￥56.00',
      '￥83.00',
      '-￥10.00',
      '-￥5.00',
      '-￥1.00',
      '备注：不要辣，多放葱',
      '[QR:NO20250101001]',
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/实付 +￥74\.00/);
    expect(text).toMatch(/打包费 +￥2\.00/);
    expect(text).toMatch(/配送费 +￥5\.00/);
    // The raw GBK decoding holds the same Chinese (nothing is sent as UTF-8).
    expect(iconv.decode(bytesOf(58), 'gbk')).toContain('宫保鸡丁小馆');
    expect(bytesOf(58).includes(Buffer.from('宫保', 'utf8'))).toBe(false);
  });

  it.each([
    [58, 32],
    [80, 48],
  ] as const)(
    'lines items and totals up in the %i mm paper’s %i columns, a Chinese character counting two',
    (paper, columns) => {
      const lines = printedLines(bytesOf(paper));
      for (const line of lines) expect(columnsOf(line), line).toBeLessThanOrEqual(columns);
      const header = lines.find((l) => l.startsWith('商品 ')) as string;
      const rice = lines.find((l) => l.startsWith('米饭')) as string;
      const cola = lines.find((l) => l.startsWith('Coca-Cola')) as string;
      const total = lines.find((l) => l.startsWith('商品金额')) as string;
      const rule = lines.find((l) => l.startsWith('---')) as string;
      for (const line of [header, rice, cola, total, rule]) expect(columnsOf(line), line).toBe(columns);
      // Quantities end in one column, amounts in the last.
      const qtyEnd = (line: string, qty: string) => columnsOf(line.slice(0, line.indexOf(qty) + qty.length));
      expect(qtyEnd(rice, 'x12')).toBe(qtyEnd(cola, 'x1'));
      expect(rice.endsWith('￥24.00')).toBe(true);
      // The long name wraps inside its column, never splitting a character, and the line holding
      // its quantity is as wide as the others.
      const first = lines.find((l) => l.startsWith('宫保鸡丁盖浇饭')) as string;
      expect(columnsOf(first)).toBe(columns);
      expect(first).toContain('x2');
      // The name column ends one space before the header's 数量.
      const nameWidth = columnsOf(header.slice(0, header.indexOf('数量'))) - 1;
      expect(nameWidth).toBe(columns - columnsOf('数量') - columnsOf('￥56.00') - 2);
      const wrapped = wrap('宫保鸡丁盖浇饭加量不加价套餐（大份）', nameWidth);
      expect(lines.join('\n')).toContain(wrapped.at(-1) as string);
      expect(wrapped.join('')).toBe('宫保鸡丁盖浇饭加量不加价套餐（大份）');
    },
  );

  it('prints each copy whole: initialize to cut, n times', () => {
    const bytes = bytesOf(80, receipt, 3);
    expect(count(bytes, [ESC, 0x40])).toBe(3);
    expect(count(bytes, [GS, 0x56])).toBe(3);
    expect(qrCodes(bytes)).toEqual(Array(3).fill('NO20250101001'));
  });

  it('never lets a remark or a name carry printer commands, and prints ¥ as GBK has it', () => {
    const hostile: Receipt = {
      ...receipt,
      storeName: 'A\x1b@B',
      remark: '请\x1dV\x00切纸\n\x1b@重置\u2028换行 ¥5',
      items: [{ name: '可乐\x1c.', sku: null, qty: 1, amountFen: 300 }],
    };
    const bytes = bytesOf(58, hostile);
    // Exactly the commands the layout gives: one initialize, one cut.
    expect(count(bytes, [ESC, 0x40])).toBe(1);
    expect(count(bytes, [GS, 0x56])).toBe(1);
    expect(count(bytes, [FS, 0x2e])).toBe(1);
    const text = printedLines(bytes).join('\n');
    expect(text).toContain('备注：请 V 切纸 @重置 换行 ￥5');
    expect(printable('¥12 \t a')).toBe('￥12 a');
  });

  it('leaves out what an order does not have: no fees, no discounts, no remark, no address', () => {
    const plain: Receipt = {
      ...receipt,
      fulfilment: '到店自取',
      remark: null,
      address: null,
      totals: {
        ...receipt.totals,
        packingFen: 0,
        deliveryFen: 0,
        discountFen: 0,
        couponFen: 0,
        pointsFen: 0,
        payableFen: 8300,
        paid: false,
      },
    };
    const text = printedLines(bytesOf(58, plain)).join('\n');
    for (const absent of ['打包费', '配送费', '满减', '优惠券', '积分', '备注', '地址', '实付'])
      expect(text).not.toContain(absent);
    expect(text).toMatch(/应付 +￥83\.00/);
  });
});

describe('the test page', () => {
  it('shows the printer, the paper, the time, Chinese text, a full-width ruler and a QR code', () => {
    const bytes = Buffer.from(
      renderTestPage({
        printerName: '前台小票机',
        paperWidth: 80,
        printedAt: '2025-01-01 16:00',
        qr: 'TEST-7',
      }),
    );
    const lines = printedLines(bytes);
    const text = lines.join('\n');
    for (const expected of [
      '打印测试',
      '打印机：前台小票机',
      '纸宽：80 mm（每行 48 列）',
      '时间：2025-01-01 16:00',
    ])
      expect(text).toContain(expected);
    expect(text).toMatch(/中文：万象餐饮/);
    expect(lines).toContain('123456789012345678901234567890123456789012345678');
    expect(qrCodes(bytes)).toEqual(['TEST-7']);
    expect(count(bytes, [GS, 0x56])).toBe(1);
  });
});

describe('GBK width', () => {
  it('counts what the printer prints: ASCII one column, Chinese and full-width two, GBK’s two-byte symbols two', () => {
    expect(textWidth('abc')).toBe(3);
    expect(textWidth('中文')).toBe(4);
    expect(textWidth('￥')).toBe(2);
    expect(textWidth('·')).toBe(2);
    expect(wrap('一二三四五', 5)).toEqual(['一二', '三四', '五']);
    expect(wrap('ab一二', 3)).toEqual(['ab', '一', '二']);
  });
});
