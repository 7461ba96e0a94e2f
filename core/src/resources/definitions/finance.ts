/**
 * Money held for users (DOMAIN.md "OMS"): the balance ledger and prepaid cards.
 *
 * Each action writes a ledger entry and a balance in one transaction (server/src/domain/finance/
 * ledger.ts; a balance never goes below zero): cardProducts sell, prepaidCards recharge (finance
 * area), balanceLedger adjust with a reason (marketing area).
 */

import { PAY_METHOD_LABELS } from '../../orders/pay-methods';
import { defineResource } from '../define';
import { f, options } from '../fields';
import { readOnlyFields, transition } from './common';

/** How the counter takes the money for a card or a card's top-up. */
const CARD_PAY_METHODS = options(
  ...(['cash', 'wechat', 'balance'] as const).map((v) => [v, PAY_METHOD_LABELS[v]] as [string, string]),
);

export const balanceLedger = defineResource({
  name: 'balanceLedger',
  title: '余额流水',
  route: 'OMS/balance',
  area: 'finance',
  displayField: 'id',
  // Entries are never edited; an adjustment is an entry of its own.
  readOnly: true,
  indexes: [
    ['userId', '-createdAt'],
    ['kind', '-createdAt'],
  ],
  fields: readOnlyFields({
    userId: f.relation('用户', 'users'),
    // Set when the entry moved a prepaid card's balance (then balanceAfterFen is the card's).
    cardId: f.relation('储值卡', 'prepaidCards', { filterable: true, hideInList: true }),
    changeFen: f.money('变动金额', {
      min: undefined,
      sortable: true,
      filterable: true,
      help: '正数入账，负数出账',
    }),
    balanceAfterFen: f.money('变动后余额'),
    kind: f.enum(
      '类型',
      options(
        ['recharge', '充值', 'green'],
        ['pay', '消费', 'orange'],
        ['refund', '退款', 'blue'],
        ['adjust', '人工调整', 'red'],
        ['card', '储值卡', 'purple'],
      ),
    ),
    refType: f.string('关联类型', { max: 30, filterable: true }),
    refId: f.integer('关联单据', { filterable: true }),
    note: f.string('备注', { max: 200, searchable: true }),
  }),
  actions: [
    {
      name: 'adjust',
      label: '调整余额',
      scope: 'collection',
      input: {
        userId: f.relation('用户', 'users', { required: true }),
        changeFen: f.money('调整金额', {
          required: true,
          min: -100_000_000,
          max: 100_000_000,
          help: '正数入账，负数扣减；扣减后余额不能低于 0',
        }),
        note: f.string('原因', { required: true, max: 200 }),
      },
      rules: [(v) => (v.changeFen === 0 ? { changeFen: '调整金额不能为 0' } : null)],
      effect: { kind: 'handler' },
    },
  ],
});

export const cardProducts = defineResource({
  name: 'cardProducts',
  title: '储值卡商品',
  route: 'OMS/card',
  area: 'finance',
  displayField: 'name',
  softDelete: true,
  fields: {
    name: f.string('名称', { required: true, max: 50, searchable: true }),
    faceValueFen: f.money('面值', { required: true, min: 1, sortable: true }),
    priceFen: f.money('售价', { required: true, min: 1, sortable: true }),
    bonusFen: f.money('赠送金额', { default: 0 }),
    status: f.enum('状态', options(['onSale', '在售', 'green'], ['offSale', '停售', 'default']), {
      default: 'onSale',
    }),
  },
  actions: [
    {
      name: 'sell',
      label: '售卡',
      input: {
        userId: f.relation('购卡用户', 'users', { required: true }),
        payMethod: f.enum('收款方式', CARD_PAY_METHODS, { required: true, default: 'cash' }),
      },
      effect: { kind: 'handler', when: { status: ['onSale'] } },
    },
  ],
});

export const prepaidCards = defineResource({
  name: 'prepaidCards',
  title: '储值卡',
  route: 'OMS/card',
  area: 'finance',
  displayField: 'cardNo',
  // Cards come into being when one is sold; their balance moves only through the ledger.
  noCreate: true,
  noDelete: true,
  fields: readOnlyFields({
    cardNo: f.string('卡号', { unique: true, searchable: true, filterable: true }),
    productId: f.relation('储值卡商品', 'cardProducts'),
    userId: f.relation('持卡用户', 'users'),
    balanceFen: f.money('余额', { sortable: true, filterable: true }),
    status: f.enum(
      '状态',
      options(['active', '正常', 'green'], ['frozen', '已冻结', 'blue'], ['usedUp', '已用完', 'default']),
      { default: 'active' },
    ),
    soldAt: f.datetime('售出时间', { sortable: true }),
  }),
  actions: [
    transition('freeze', '冻结', ['active'], 'frozen', {
      danger: true,
      confirm: '冻结后此卡不能用于支付，确定冻结？',
    }),
    transition('unfreeze', '解冻', ['frozen'], 'active'),
    {
      name: 'recharge',
      label: '充值',
      input: {
        amountFen: f.money('充值金额', { required: true, min: 1, max: 10_000_00 }),
        payMethod: f.enum('收款方式', CARD_PAY_METHODS, { required: true, default: 'cash' }),
      },
      effect: { kind: 'handler', when: { status: ['active', 'usedUp'] } },
    },
  ],
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [balanceLedger, cardProducts, prepaidCards];
