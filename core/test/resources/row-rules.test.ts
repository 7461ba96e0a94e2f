/**
 * Cross-field rules declared in definitions (`rules`): the whole row is checked, each broken rule
 * answers its field with a Chinese message; action inputs have theirs too.
 */
import { describe, expect, it } from 'vitest';
import {
  applicableActions,
  collectionActions,
  defineResource,
  f,
  getResource,
  registryProblems,
  rowActions,
  validateInput,
  validateRow,
} from '../../src/index';

const fields = (name: string, row: Record<string, unknown>) => {
  const result = validateRow(getResource(name), row);
  return result.ok ? {} : result.fields;
};

const template = {
  name: '满 30 减 5',
  kind: 'cash',
  valueFen: 500,
  thresholdFen: 3000,
  validity: 'relative',
  validDays: 7,
  status: 'enabled',
};

describe('couponTemplates rules', () => {
  it('accepts each kind with what it needs', () => {
    expect(fields('couponTemplates', template)).toEqual({});
    expect(fields('couponTemplates', { ...template, kind: 'discount', valueFen: null, rate: 85 })).toEqual(
      {},
    );
    expect(fields('couponTemplates', { ...template, kind: 'item', goodsId: 3 })).toEqual({});
  });

  it('refuses a 代金券 or 单品券 without 面额, a 折扣券 without 折扣, a 单品券 without its goods', () => {
    expect(fields('couponTemplates', { ...template, valueFen: null })).toEqual({
      valueFen: '代金券须填写面额（大于 0）',
    });
    expect(fields('couponTemplates', { ...template, valueFen: 0 })).toEqual({
      valueFen: '代金券须填写面额（大于 0）',
    });
    expect(fields('couponTemplates', { ...template, kind: 'discount', rate: null })).toEqual({
      rate: '折扣券须填写折扣',
    });
    expect(fields('couponTemplates', { ...template, kind: 'item', valueFen: null })).toEqual({
      valueFen: '单品券须填写面额（大于 0）',
      goodsId: '单品券须选择指定商品',
    });
  });

  it('refuses 固定日期 without both dates or with the end not after the start, and 领取后生效 without days', () => {
    const fixed = { ...template, validity: 'fixed', validDays: null };
    expect(fields('couponTemplates', fixed)).toEqual({
      validFrom: '固定日期须填写生效时间',
      validTo: '固定日期须填写失效时间',
    });
    expect(
      fields('couponTemplates', {
        ...fixed,
        validFrom: '2025-06-01T00:00:00Z',
        validTo: '2025-06-01T00:00:00Z',
      }),
    ).toEqual({ validTo: '失效时间须晚于生效时间' });
    expect(
      fields('couponTemplates', {
        ...fixed,
        validFrom: '2025-06-01T00:00:00Z',
        validTo: '2025-06-30T16:00:00Z',
      }),
    ).toEqual({});
    expect(fields('couponTemplates', { ...template, validDays: null })).toEqual({
      validDays: '领取后生效须填写有效天数',
    });
  });
});

describe('other marketing rules', () => {
  it('couponRules: 订单满额 needs its threshold; the end after the start', () => {
    const rule = { name: '满 100 送券', trigger: 'orderAmount', templateId: 1, qty: 1, status: 'enabled' };
    expect(fields('couponRules', rule)).toEqual({ thresholdFen: '订单满额须填写满额门槛（大于 0）' });
    expect(fields('couponRules', { ...rule, thresholdFen: 10_000 })).toEqual({});
    expect(fields('couponRules', { ...rule, trigger: 'register' })).toEqual({});
    expect(
      fields('couponRules', {
        ...rule,
        trigger: 'register',
        startAt: '2025-06-02T00:00:00Z',
        endAt: '2025-06-01T00:00:00Z',
      }),
    ).toEqual({ endAt: '结束时间须晚于开始时间' });
  });

  it('discounts: the end after the start (tiers are their JSON shape’s)', () => {
    const discount = { name: '五一满减', tiers: [{ thresholdFen: 3000, reduceFen: 500 }] };
    expect(
      fields('discounts', { ...discount, startAt: '2025-05-05T00:00:00Z', endAt: '2025-05-01T00:00:00Z' }),
    ).toEqual({ endAt: '结束时间须晚于开始时间' });
    expect(
      fields('discounts', { ...discount, startAt: '2025-05-01T00:00:00Z', endAt: '2025-05-05T00:00:00Z' }),
    ).toEqual({});
  });

  it('ledger adjustments refuse a change of 0', () => {
    const adjust = getResource('pointsLedger').actions?.find((a) => a.name === 'adjust');
    if (!adjust?.input) throw new Error('pointsLedger.adjust has no input');
    expect(validateInput(adjust.input, { userId: 1, change: 0, note: '补发' }, adjust.rules)).toEqual({
      ok: false,
      fields: { change: '变动积分不能为 0' },
    });
    expect(validateInput(adjust.input, { userId: 1, change: -20, note: '补发' }, adjust.rules).ok).toBe(true);
  });

  it('the registry’s new declarations are sound (within, related, collection actions)', () => {
    expect(registryProblems()).toEqual([]);
    const goods = getResource('goods').fields.categoryId;
    expect(goods).toMatchObject({ type: 'relation', within: 'storeId' });
  });
});

describe('declarations the registry checks', () => {
  const stores = defineResource({
    name: 'shops',
    title: '店',
    route: null,
    area: 'oms',
    displayField: 'name',
    fields: { name: f.string('名称') },
  });
  const categories = defineResource({
    name: 'shelves',
    title: '货架',
    route: null,
    area: 'oms',
    displayField: 'name',
    fields: { name: f.string('名称'), shopId: f.relation('店', 'shops', { filterable: false }) },
  });
  const items = defineResource({
    name: 'items',
    title: '货品',
    route: null,
    area: 'oms',
    displayField: 'name',
    fields: {
      name: f.string('名称'),
      shopId: f.relation('店', 'shops'),
      shelfId: f.relation('货架', 'shelves', { within: 'shopId' }),
      ownerId: f.relation('店主', 'shops', { within: 'nothing' }),
    },
    related: [{ label: '货品', resource: 'items', field: 'name' }],
    actions: [
      {
        name: 'restock',
        label: '补货',
        scope: 'collection',
        effect: { kind: 'transition', field: 'name', from: ['a'], to: 'b' },
      },
    ],
  });

  it('names a within field the target cannot filter by, an unknown one, a related list that is no relation, a collection transition', () => {
    expect(registryProblems([stores, categories, items])).toEqual([
      'items.shelfId: within shopId is not a filterable relation of shelves',
      'items.ownerId: within nothing is not a relation of items',
      'items.ownerId: within nothing is not a filterable relation of shops',
      'items: related items.name is not a filterable relation to it',
      'items.restock: a collection action is a handler without when',
    ]);
  });

  it('tells row actions from collection actions', () => {
    const codes = getResource('exchangeCodes');
    expect(rowActions(codes).map((a) => a.name)).toEqual(['void']);
    expect(collectionActions(codes).map((a) => a.name)).toEqual(['generate', 'voidBatch']);
    expect(applicableActions(codes, { status: 'unused' }).map((a) => a.name)).toEqual(['void']);
  });
});
