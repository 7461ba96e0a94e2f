/**
 * Supply chain and customer service (core definitions/crm.ts): suppliers with the products the
 * kitchens buy (some at or below their safety stock), and customers' conversations with stores.
 */
import { DAY, type DemoContext, MINUTE } from './context.js';
import type { Store } from './oms.js';
import type { Customer } from './people.js';
import { homeAddress, landline, mobiles, PLACES, personNames } from './zh.js';

type Unit = 'kg' | 'jin' | 'piece' | 'pack' | 'bag' | 'box' | 'bottle' | 'barrel';

const SUPPLIERS: readonly (readonly [
  string,
  readonly string[],
  readonly (readonly [string, Unit, number])[],
])[] = [
  [
    '杭州四季青蔬果配送有限公司',
    ['vegetable'],
    [
      ['上海青', 'jin', 350],
      ['雪菜', 'kg', 900],
      ['春笋', 'kg', 1600],
      ['小葱', 'jin', 500],
      ['番茄', 'kg', 680],
      ['黄瓜', 'kg', 520],
    ],
  ],
  [
    '上海江桥肉类批发有限公司',
    ['meat'],
    [
      ['五花肉', 'kg', 3200],
      ['猪里脊', 'kg', 3600],
      ['猪腰', 'kg', 2800],
      ['三黄鸡', 'piece', 4500],
      ['土鸡蛋', 'box', 5800],
    ],
  ],
  [
    '舟山海鲜直供',
    ['seafood'],
    [
      ['河虾', 'kg', 9800],
      ['黄鳝', 'kg', 8600],
      ['青鱼段', 'kg', 3800],
      ['虾干（开洋）', 'bag', 6500],
    ],
  ],
  [
    '五常稻花香粮油',
    ['grain'],
    [
      ['五常大米', 'bag', 16800],
      ['高筋面粉', 'bag', 9800],
      ['碱水面', 'kg', 600],
      ['菜籽油', 'barrel', 18800],
    ],
  ],
  [
    '六必居调味品北京经销部',
    ['seasoning'],
    [
      ['黄酱', 'bottle', 1200],
      ['甜面酱', 'bottle', 900],
      ['生抽', 'bottle', 1500],
      ['老抽', 'bottle', 1500],
      ['绍兴花雕', 'bottle', 4800],
    ],
  ],
  [
    '东方茶源茶叶有限公司',
    ['drink'],
    [
      ['茉莉绿茶茶叶', 'pack', 8800],
      ['四季春乌龙', 'pack', 9600],
      ['鸭屎香单丛', 'pack', 12800],
    ],
  ],
  [
    '鲜果速达水果批发',
    ['vegetable', 'drink'],
    [
      ['香水柠檬', 'kg', 1400],
      ['巨峰葡萄', 'kg', 1800],
      ['赣南脐橙', 'kg', 1000],
      ['台农芒果', 'kg', 1600],
    ],
  ],
  [
    '乳品冷链配送中心',
    ['drink', 'other'],
    [
      ['全脂鲜奶', 'box', 14400],
      ['淡奶油', 'box', 26800],
      ['奶油奶酪', 'box', 32000],
    ],
  ],
  [
    '绿源环保包装材料厂',
    ['packaging'],
    [
      ['外卖打包盒 750ml', 'box', 9800],
      ['奶茶杯 500ml', 'box', 12600],
      ['环保纸袋', 'pack', 4500],
      ['一次性筷子', 'box', 6800],
    ],
  ],
  [
    '京城干货杂粮行',
    ['grain', 'seasoning', 'other'],
    [
      ['黑木耳', 'kg', 7800],
      ['黄花菜', 'kg', 6200],
      ['红豆', 'kg', 1400],
      ['黄豆面', 'kg', 1100],
      ['花生米', 'kg', 1600],
    ],
  ],
];

export function seedSuppliers(ctx: DemoContext): void {
  const rng = ctx.random('suppliers');
  const contacts = personNames(rng, SUPPLIERS.length);
  const phones = mobiles(rng, SUPPLIERS.length);
  SUPPLIERS.forEach(([name, categories, products], i) => {
    const place = rng.pick(PLACES);
    const at = ctx.now - rng.int(100, 400) * DAY;
    const supplier = ctx.add('suppliers', {
      name,
      contact: contacts[i]?.name,
      phone: rng.chance(0.5) ? phones[i] : landline(rng, place.city),
      address: homeAddress(rng, place).replace(/\d+幢.*$/, `${rng.int(1, 12)}号仓库`),
      categories: [...categories],
      status: i === 7 ? 'paused' : 'active',
      createdAt: at,
      updatedAt: at,
    });
    for (const [product, unit, costFen] of products) {
      const safetyStock = rng.pick([5, 10, 20, 30]);
      // About one in five at or under the safety stock: the list flags them.
      const stock = rng.chance(0.2) ? rng.int(0, safetyStock) : safetyStock + rng.int(5, 120);
      const created = at + rng.int(1, 30) * DAY;
      ctx.add('supplyProducts', {
        supplierId: supplier.id,
        name: product,
        unit,
        costFen,
        stock: unit === 'kg' || unit === 'jin' ? stock + rng.int(0, 9) / 10 : stock,
        safetyStock,
        createdAt: created,
        updatedAt: ctx.now - rng.int(0, 20) * DAY,
      });
    }
  });
}

const QUESTIONS = [
  ['我的外卖已经超时二十分钟了，还没送到', '非常抱歉，已联系骑手，预计 10 分钟内送达。'],
  ['请问今天还能预订明天中午十个人的包间吗', '可以的，已为您预留 12:00 的包间，到店报手机尾号即可。'],
  ['小笼包少送了一笼', '抱歉给您带来不便，已为您申请部分退款，请留意到账通知。'],
  ['可以开发票吗？公司报销需要', '可以的，请提供抬头和税号，我们会在 24 小时内开具电子发票。'],
  ['奶茶能做少糖去冰吗', '可以，下单时在备注里写“少糖去冰”即可。'],
  ['储值卡余额怎么查', '在小程序“我的 - 储值卡”里可以看到余额和消费记录。'],
  ['你们的炸酱面辣吗', '不辣的，黄酱是咸香口味，需要辣可以备注加辣椒油。'],
  ['优惠券为什么用不了', '这张券需要订单满 50 元才能使用，且不与满减同享。'],
  ['会员积分什么时候到账', '订单完成后积分会立即到账，每消费 1 元积 1 分。'],
  ['打包盒收费吗', '外卖和自取每单收取打包费，堂食不收。'],
];

export function seedConversations(
  ctx: DemoContext,
  stores: readonly Store[],
  customers: readonly Customer[],
): void {
  const rng = ctx.random('conversations');
  const list: { at: number; row: Record<string, unknown> }[] = [];
  for (let i = 0; i < 40; i++) {
    const store = rng.pick(stores);
    const customer = rng.pick(customers.filter((c) => c.place.city === store.city));
    const [question, answer] = rng.pick(QUESTIONS);
    const open = i < 12;
    const lastMessageAt = open
      ? ctx.now - rng.int(1, 180) * MINUTE
      : ctx.now - rng.int(1, 45) * DAY - rng.int(0, 600) * MINUTE;
    const startedAt = lastMessageAt - rng.int(2, 40) * MINUTE;
    // Open conversations wait for an answer (unread); closed ones ended with the store's reply.
    const unread = open && rng.chance(0.7) ? rng.int(1, 4) : 0;
    list.push({
      at: startedAt,
      row: {
        customerId: customer.row.id,
        storeId: store.row.id,
        assigneeId: rng.chance(0.8) ? ctx.staff.operator : null,
        lastMessage: unread > 0 ? question : answer,
        lastMessageAt,
        unread,
        status: open ? 'open' : 'closed',
        updatedAt: open ? lastMessageAt : lastMessageAt + rng.int(5, 120) * MINUTE,
      },
    });
  }
  list.sort((a, b) => a.at - b.at);
  for (const { at, row } of list)
    ctx.add('conversations', {
      ...row,
      createdAt: at,
      updatedAt: Math.min(ctx.now, row.updatedAt as number),
    });
}
