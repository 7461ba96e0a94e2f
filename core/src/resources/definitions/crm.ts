/**
 * Supply chain and customer service (DOMAIN.md "crm"): suppliers, their products, conversations.
 *
 * Arrives with the chat service (websocket): conversations reply.
 */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { transition } from './common';

export const suppliers = defineResource({
  name: 'suppliers',
  title: '供应商',
  route: 'crm/supplier',
  area: 'crm',
  displayField: 'name',
  softDelete: true,
  fields: {
    name: f.string('供应商名称', { required: true, max: 50, unique: true, searchable: true, sortable: true }),
    contact: f.string('联系人', { required: true, max: 20, searchable: true }),
    phone: f.phone('联系电话', { required: true, searchable: true }),
    address: f.string('地址', { max: 200 }),
    categories: f.enumList(
      '供货品类',
      options(
        ['vegetable', '蔬菜水果', 'green'],
        ['meat', '肉禽蛋', 'red'],
        ['seafood', '水产', 'blue'],
        ['grain', '米面粮油', 'gold'],
        ['seasoning', '调味品', 'orange'],
        ['drink', '酒水饮料', 'cyan'],
        ['packaging', '包材耗材', 'purple'],
        ['other', '其他', 'default'],
      ),
      { filterable: true },
    ),
    status: f.enum('状态', options(['active', '合作中', 'green'], ['paused', '暂停合作', 'default']), {
      default: 'active',
    }),
  },
});

export const supplyProducts = defineResource({
  name: 'supplyProducts',
  title: '菜品',
  route: 'crm/product',
  area: 'crm',
  displayField: 'name',
  description: '库存不高于安全库存时列表标为“库存不足”；入库用“采购入库”。',
  fields: {
    supplierId: f.relation('供应商', 'suppliers', { required: true }),
    name: f.string('名称', { required: true, max: 50, searchable: true, sortable: true }),
    unit: f.enum(
      '单位',
      options(
        ['kg', '千克'],
        ['jin', '斤'],
        ['piece', '个'],
        ['pack', '包'],
        ['bag', '袋'],
        ['box', '箱'],
        ['bottle', '瓶'],
        ['barrel', '桶'],
      ),
      { required: true },
    ),
    costFen: f.money('进价', { required: true, sortable: true }),
    stock: f.number('库存', {
      min: 0,
      default: 0,
      createOnly: true,
      sortable: true,
      filterable: true,
      help: '初始库存；之后用“采购入库”增加',
    }),
    safetyStock: f.number('安全库存', { min: 0, default: 0 }),
  },
  actions: [
    {
      name: 'purchaseIn',
      label: '采购入库',
      input: {
        qty: f.number('入库数量', { required: true, min: 0.01, max: 1_000_000 }),
        costFen: f.money('本次进价', { help: '填写则更新进价' }),
      },
      effect: { kind: 'handler' },
    },
  ],
});

export const conversations = defineResource({
  name: 'conversations',
  title: '客服会话',
  route: 'crm/chat',
  area: 'crm',
  displayField: 'id',
  // Customers start conversations from the mini-program.
  noCreate: true,
  defaultSort: '-lastMessageAt',
  indexes: [['status', '-lastMessageAt']],
  fields: {
    customerId: f.relation('顾客', 'users', { readOnly: true }),
    storeId: f.relation('门店', 'stores', { readOnly: true }),
    assigneeId: f.relation('接待客服', 'users'),
    lastMessage: f.string('最后一条消息', { readOnly: true, max: 500, searchable: true }),
    lastMessageAt: f.datetime('最后消息时间', { readOnly: true, sortable: true, filterable: true }),
    unread: f.integer('未读', { readOnly: true, sortable: true, filterable: true }),
    status: f.enum('状态', options(['open', '进行中', 'green'], ['closed', '已结束', 'default']), {
      readOnly: true,
      default: 'open',
    }),
  },
  actions: [
    transition('close', '结束会话', ['open'], 'closed'),
    transition('reopen', '重新打开', ['closed'], 'open'),
  ],
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [suppliers, supplyProducts, conversations];
