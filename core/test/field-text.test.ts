import { describe, expect, it } from 'vitest';
import { type FieldDef, f, fieldText, options } from '../src/index';

const status = f.enum('状态', options(['open', '营业中', 'green'], ['closed', '休息']));
const tags = f.enumList('标签', options(['hot', '热销'], ['new', '新品']));
const store = f.relation('门店', 'stores');
const stores = f.relationList('门店', 'stores');
const names = { 1: '朝阳门店', 2: '海淀门店' };

describe('fieldText: one rule for how a value reads', () => {
  it('shows enum labels, 是/否 and lists joined with 、', () => {
    expect(fieldText(status, 'open')).toBe('营业中');
    expect(fieldText(status, 'gone')).toBe('gone');
    expect(fieldText(tags, ['hot', 'new', 'x'])).toBe('热销、新品、x');
    expect(fieldText(f.boolean('上架'), true)).toBe('是');
    expect(fieldText(f.boolean('上架'), false)).toBe('否');
    expect(fieldText(f.stringList('别名'), ['甲', '乙'])).toBe('甲、乙');
  });

  it('shows money as ¥ on a screen and as a plain amount in a sheet', () => {
    const price = f.money('价格');
    expect(fieldText(price, 123456)).toBe('¥1,234.56');
    expect(fieldText(price, -50)).toBe('-¥0.50');
    expect(fieldText(price, 0)).toBe('¥0.00');
    expect(fieldText(price, 123456, { for: 'sheet' })).toBe('1234.56');
    expect(fieldText(price, -50, { for: 'sheet' })).toBe('-0.50');
    expect(fieldText(price, 0, { for: 'sheet' })).toBe('0.00');
  });

  it('shows times in China Standard Time, +08:00 all year, whatever the host zone', () => {
    const at = f.datetime('时间');
    expect(fieldText(at, '2024-02-29T15:59:59.999Z')).toBe('2024-02-29 23:59');
    expect(fieldText(at, '2024-02-29T16:00:00.000Z')).toBe('2024-03-01 00:00');
    // China kept summer time in 1986–1991; the rule here does not (as the CSV never did).
    expect(fieldText(at, '1990-07-01T00:00:00.000Z')).toBe('1990-07-01 08:00');
    expect(fieldText(at, 'not a time')).toBe('-');
    expect(fieldText(at, 'not a time', { for: 'sheet' })).toBe('');
    expect(fieldText(f.date('日期'), '2024-05-01')).toBe('2024-05-01');
  });

  it('names related rows, with the id where the name is unknown on a screen', () => {
    expect(fieldText(store, 1, { relations: names })).toBe('朝阳门店');
    expect(fieldText(store, 9, { relations: names })).toBe('#9');
    expect(fieldText(store, 9, { relations: names, for: 'sheet' })).toBe('');
    expect(fieldText(stores, [1, 2, 9], { relations: names })).toBe('朝阳门店、海淀门店、#9');
    expect(fieldText(stores, [1, 2], { relations: new Map([[1, '甲']]), for: 'sheet' })).toBe('甲、');
  });

  it('writes JSON compactly, or pretty in a detail view', () => {
    const items = f.json('明细');
    expect(fieldText(items, [{ a: 1 }])).toBe('[{"a":1}]');
    expect(fieldText(items, { a: 1 }, { multiline: true })).toBe('{\n  "a": 1\n}');
    expect(fieldText(items, '')).toBe('""');
  });

  it('reads order and refund items as goods lines, not JSON', () => {
    const items = f.json('商品明细', { shape: 'orderItems' });
    const lines = [
      { goodsId: 1, name: '牛肉面', sku: null, qty: 2, unitPriceFen: 2800, refundedQty: 0 },
      { goodsId: 2, name: '奶茶', sku: '大杯', qty: 1, unitPriceFen: 1800, refundedQty: 1 },
    ];
    expect(fieldText(items, lines)).toBe('牛肉面 ×2 ¥56.00；奶茶（大杯）×1 ¥18.00（已退 1）');
    expect(fieldText(items, lines, { multiline: true })).toBe(
      '牛肉面 ×2 ¥56.00\n奶茶（大杯）×1 ¥18.00（已退 1）',
    );
    // The same text in a sheet: it is a description, not a figure to sum.
    expect(fieldText(items, lines, { for: 'sheet' })).toBe(fieldText(items, lines));
    expect(fieldText(items, [{ goodsId: 9, qty: 1 }])).toBe('商品#9 ×1');
    expect(fieldText(items, [])).toBe('-');
    expect(fieldText(items, [], { for: 'sheet' })).toBe('');
    // Not lines at all: the JSON as it is.
    expect(fieldText(items, { a: 1 })).toBe('{"a":1}');
    expect(fieldText(items, [1, 2])).toBe('[1,2]');

    const refund = f.json('退款明细', { shape: 'refundItems' });
    expect(
      fieldText(refund, [
        { index: 1, goodsId: 2, name: '奶茶', sku: '大杯', qty: 1, amountFen: 1620, points: 0 },
      ]),
    ).toBe('奶茶（大杯）×1 ¥16.20');
    expect(fieldText(refund, [{ goodsId: 2, qty: 2, amountFen: 100 }])).toBe('商品#2 ×2 ¥1.00');
  });

  it('masks secrets and shows empty values as - (a sheet: nothing)', () => {
    const secret: FieldDef = { type: 'string', label: '密钥', writeOnly: true };
    expect(fieldText(secret, '******')).toBe('******');
    expect(fieldText(f.password('密码'), 'x')).toBe('******');
    expect(fieldText(f.string('卡号'), '110***********1234')).toBe('110***********1234');
    for (const field of [status, tags, store, stores, f.money('价格'), f.string('名称'), f.integer('数量')]) {
      expect(fieldText(field, null)).toBe('-');
      expect(fieldText(field, undefined, { for: 'sheet' })).toBe('');
    }
    expect(fieldText(tags, [])).toBe('-');
    expect(fieldText(f.string('名称'), '')).toBe('-');
  });

  it('keeps a screen line to one line and adds units, but not in a sheet', () => {
    expect(fieldText(f.text('备注'), '一\n  二')).toBe('一 二');
    expect(fieldText(f.text('备注'), '一\n二', { multiline: true })).toBe('一\n二');
    expect(fieldText(f.text('备注'), '一\n二', { for: 'sheet' })).toBe('一\n二');
    expect(fieldText(f.integer('库存', { unit: '件' }), 5)).toBe('5 件');
    expect(fieldText(f.integer('库存', { unit: '件' }), 5, { for: 'sheet' })).toBe('5');
    expect(fieldText(f.number('折扣'), 0)).toBe('0');
    expect(fieldText(f.string('名称'), '朝阳门店😀')).toBe('朝阳门店😀');
  });
});
