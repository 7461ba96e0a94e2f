/**
 * Food-ordering operations (core definitions/oms.ts), the catalogue half: four brands with two
 * branches each in 北京, 上海 and 杭州, their menus (categories, goods with SKU lists, prices in
 * fen) and receipt printers. The orders over them are simulated in oms-orders.ts.
 */
import { atChinaTime, DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import { squareCard } from './images.js';
import { type City, landline, near, PLACES } from './zh.js';

export interface MenuItem {
  name: string;
  /** Yuan. */
  price: number;
  description: string;
  /** SKU names with their extra price in yuan (the first is the base). */
  specs?: readonly (readonly [string, number])[];
}

export interface Brand {
  name: string;
  kind: 'noodles' | 'bistro' | 'tea' | 'homestyle';
  hours: string;
  /** Fen. */
  deliveryFee: number;
  packingFee: number;
  minOrder: number;
  branches: readonly { branch: string; city: City; district: string; street: string; no: number }[];
  menu: readonly (readonly [string, readonly MenuItem[]])[];
}

const BOWL = [
  ['小碗', 0],
  ['大碗', 3],
] as const;
const CUP = [
  ['中杯', 0],
  ['大杯', 4],
] as const;

export const BRANDS: readonly Brand[] = [
  {
    name: '知味面馆',
    kind: 'noodles',
    hours: '07:00-21:30',
    deliveryFee: 300,
    packingFee: 100,
    minOrder: 1500,
    branches: [
      { branch: '文三路店', city: '杭州', district: '西湖区', street: '文三路', no: 259 },
      { branch: '江南大道店', city: '杭州', district: '滨江区', street: '江南大道', no: 588 },
    ],
    menu: [
      [
        '招牌面',
        [
          { name: '片儿川', price: 22, description: '雪菜、笋片、瘦肉片，杭州人的早饭', specs: BOWL },
          { name: '虾爆鳝面', price: 38, description: '现爆河虾与鳝片，浇头另炒，面条劲道', specs: BOWL },
          { name: '雪菜肉丝面', price: 18, description: '咸鲜爽口的家常味道', specs: BOWL },
          { name: '葱油拌面', price: 15, description: '熬足两小时的葱油，配开洋', specs: BOWL },
          { name: '腰花面', price: 28, description: '腰花现切现炒，脆嫩无腥', specs: BOWL },
        ],
      ],
      [
        '盖浇饭',
        [
          { name: '红烧肉盖浇饭', price: 26, description: '肥瘦相间，酱香浓郁' },
          { name: '番茄炒蛋盖饭', price: 18, description: '酸甜开胃，米饭可加' },
          { name: '鱼香肉丝盖饭', price: 22, description: '微辣，下饭神器' },
        ],
      ],
      [
        '小吃',
        [
          {
            name: '鲜肉小笼包',
            price: 16,
            description: '一笼 8 只，皮薄汁多',
            specs: [
              ['8只', 0],
              ['12只', 7],
            ],
          },
          { name: '葱包桧', price: 8, description: '油条裹春饼，刷甜面酱' },
          { name: '卤鸭腿', price: 12, description: '老卤慢炖，咸甜适中' },
        ],
      ],
      [
        '饮品',
        [
          { name: '酸梅汤', price: 6, description: '乌梅山楂熬制，冰镇更佳' },
          {
            name: '现磨豆浆',
            price: 4,
            description: '当日现磨，可选甜或淡',
            specs: [
              ['甜', 0],
              ['淡', 0],
            ],
          },
        ],
      ],
    ],
  },
  {
    name: '弄堂小馆',
    kind: 'bistro',
    hours: '10:30-22:00',
    deliveryFee: 500,
    packingFee: 200,
    minOrder: 4000,
    branches: [
      { branch: '南京西路店', city: '上海', district: '静安区', street: '南京西路', no: 1038 },
      { branch: '淮海中路店', city: '上海', district: '徐汇区', street: '淮海中路', no: 1555 },
    ],
    menu: [
      [
        '本帮热菜',
        [
          { name: '本帮红烧肉', price: 58, description: '浓油赤酱，入口即化' },
          { name: '油爆河虾', price: 68, description: '外壳酥脆，鲜甜入味' },
          { name: '响油鳝糊', price: 72, description: '上桌浇热油，滋啦作响' },
          { name: '糖醋小排', price: 48, description: '酸甜适口，老少皆宜' },
          {
            name: '腌笃鲜',
            price: 56,
            description: '咸肉鲜肉春笋，汤色奶白',
            specs: [
              ['小份', 0],
              ['大份', 20],
            ],
          },
        ],
      ],
      [
        '冷菜',
        [
          { name: '苏式熏鱼', price: 32, description: '青鱼段现炸后浸汁' },
          { name: '花雕醉鸡', price: 38, description: '三黄鸡浸花雕酒 24 小时' },
          { name: '四喜烤麸', price: 22, description: '香菇木耳金针花生，甜咸口' },
        ],
      ],
      [
        '点心主食',
        [
          {
            name: '生煎馒头',
            price: 18,
            description: '底脆皮薄，一客 4 只',
            specs: [
              ['4只', 0],
              ['8只', 16],
            ],
          },
          { name: '咸肉菜饭', price: 12, description: '青菜咸肉焖饭，带锅巴' },
          { name: '开洋葱油面', price: 16, description: '虾干与葱油的经典组合' },
        ],
      ],
      ['汤羹', [{ name: '上海罗宋汤', price: 20, description: '番茄卷心菜牛肉，酸甜浓郁' }]],
    ],
  },
  {
    name: '青柠茶事',
    kind: 'tea',
    hours: '09:00-22:30',
    deliveryFee: 400,
    packingFee: 0,
    minOrder: 2000,
    branches: [
      { branch: '望京店', city: '北京', district: '朝阳区', street: '望京街', no: 9 },
      { branch: '湖滨店', city: '杭州', district: '上城区', street: '延安路', no: 258 },
    ],
    menu: [
      [
        '鲜果茶',
        [
          { name: '满杯鲜橙', price: 18, description: '整颗橙子现榨，搭配茉莉绿茶', specs: CUP },
          { name: '杨枝甘露', price: 22, description: '芒果西柚椰浆，清爽不腻', specs: CUP },
          { name: '葡萄冻冻', price: 24, description: '手剥巨峰葡萄，加晶球', specs: CUP },
          { name: '暴打柠檬茶', price: 16, description: '香水柠檬现捶，鸭屎香底茶', specs: CUP },
        ],
      ],
      [
        '奶茶',
        [
          { name: '珍珠奶茶', price: 14, description: '现煮黑糖珍珠', specs: CUP },
          { name: '芋泥波波', price: 19, description: '荔浦芋头现蒸现压', specs: CUP },
          { name: '黑糖鹿丸', price: 18, description: '鲜奶与黑糖的浓郁搭配', specs: CUP },
        ],
      ],
      [
        '纯茶',
        [
          { name: '茉莉绿茶', price: 12, description: '广西横县茉莉，七窨一提', specs: CUP },
          { name: '四季春', price: 12, description: '台式乌龙，花香清扬', specs: CUP },
        ],
      ],
      [
        '甜品小食',
        [
          { name: '重芝士蛋糕', price: 22, description: '奶油奶酪含量 40%' },
          {
            name: '葡式蛋挞',
            price: 8,
            description: '一份 1 只，酥皮现烤',
            specs: [
              ['1只', 0],
              ['4只', 22],
            ],
          },
        ],
      ],
    ],
  },
  {
    name: '京味小厨',
    kind: 'homestyle',
    hours: '10:00-21:00',
    deliveryFee: 400,
    packingFee: 150,
    minOrder: 3000,
    branches: [
      { branch: '中关村店', city: '北京', district: '海淀区', street: '中关村大街', no: 27 },
      { branch: '东直门店', city: '北京', district: '东城区', street: '东直门内大街', no: 88 },
    ],
    menu: [
      [
        '招牌菜',
        [
          { name: '京酱肉丝', price: 38, description: '配豆皮葱丝，卷着吃' },
          { name: '宫保鸡丁', price: 32, description: '糊辣荔枝口，花生酥脆' },
          { name: '木须肉', price: 30, description: '鸡蛋木耳黄瓜，家常下饭' },
          { name: '干炸丸子', price: 28, description: '外焦里嫩，蘸椒盐' },
        ],
      ],
      [
        '面食饺子',
        [
          { name: '老北京炸酱面', price: 22, description: '六必居黄酱，配八样菜码', specs: BOWL },
          { name: '打卤面', price: 20, description: '木耳黄花菜鸡蛋卤', specs: BOWL },
          {
            name: '猪肉大葱饺子',
            price: 26,
            description: '现包现煮',
            specs: [
              ['半斤', 0],
              ['一斤', 22],
            ],
          },
        ],
      ],
      [
        '京味小吃',
        [
          { name: '驴打滚', price: 12, description: '黄豆面裹红豆沙' },
          { name: '炒肝', price: 10, description: '蒜香浓郁，配包子更地道' },
          { name: '卤煮火烧', price: 28, description: '老汤慢炖，火烧吸满汤汁' },
        ],
      ],
      [
        '主食',
        [
          { name: '东北大米饭', price: 2, description: '一碗' },
          { name: '手工馒头', price: 2, description: '一个' },
        ],
      ],
    ],
  },
];

/** A menu item's SKUs in fen: its specs with their extra price, or one unnamed SKU. */
export function skusOf(item: MenuItem): { name: string | null; priceFen: number }[] {
  const base = item.price * 100;
  return item.specs
    ? item.specs.map(([name, extra]) => ({ name, priceFen: base + extra * 100 }))
    : [{ name: null, priceFen: base }];
}

export interface Good {
  row: Row;
  /** SKUs (name, fen), or a single unnamed one. */
  skus: readonly { name: string | null; priceFen: number }[];
}

export interface Store {
  row: Row;
  brand: Brand;
  city: City;
  point: { lng: number; lat: number };
  goods: Good[];
  autoAccept: boolean;
}

export function seedStores(ctx: DemoContext): Store[] {
  const rng = ctx.random('stores');
  const stores: Store[] = [];
  const images = new Map<string, Promise<string>>();
  /** One picture per menu item, shared by a brand's branches. */
  const imageOf = (brand: Brand, item: MenuItem) => {
    const key = `${brand.name}/${item.name}`;
    let url = images.get(key);
    if (!url) {
      const title = item.name.length > 5 ? item.name.slice(0, 5) : item.name;
      url = squareCard(rng.fork(key), 360, title, brand.name).then((img) => ctx.file(img, 'jpg'));
      images.set(key, url);
    }
    return url;
  };

  BRANDS.forEach((brand, b) => {
    const logo = squareCard(rng.fork(brand.name), 240, brand.name.slice(0, 2), brand.name, 'png').then(
      (img) => ctx.file(img, 'png'),
    );
    brand.branches.forEach((branch, i) => {
      const place = PLACES.find((p) => p.city === branch.city && p.district === branch.district) ?? PLACES[0];
      const point = near(rng, place?.lng ?? 120.13, place?.lat ?? 30.27, 600);
      const opened = ctx.now - (420 - b * 40 - i * 60) * DAY;
      // Two branches open, others paused for the night or closed for renovation.
      const status = b === 3 && i === 1 ? 'closed' : b === 1 && i === 1 ? 'paused' : 'open';
      const autoAccept = brand.kind === 'tea' || (b + i) % 3 === 0;
      const row = ctx.add('stores', {
        name: `${brand.name}（${branch.branch}）`,
        logo: null as string | null,
        phone: landline(rng, branch.city),
        address: `${branch.city}市${branch.district}${branch.street}${branch.no}号${rng.pick(['一层', '1F-08', '一楼临街', 'B1-12'])}`,
        lng: point.lng,
        lat: point.lat,
        businessHours: brand.hours,
        status,
        deliveryRadiusM: brand.kind === 'tea' ? 3000 : rng.pick([3000, 4000, 5000]),
        minOrderFen: brand.minOrder,
        deliveryFeeFen: brand.deliveryFee,
        packingFeeFen: brand.packingFee,
        autoAccept,
        createdAt: opened,
        updatedAt: ctx.now - rng.int(1, 20) * DAY,
      });
      ctx.later(async () => {
        row.logo = await logo;
      });
      const store: Store = { row, brand, city: branch.city, point, goods: [], autoAccept };
      stores.push(store);

      brand.menu.forEach(([category, items], c) => {
        const cat = ctx.add('goodsCategories', {
          storeId: row.id,
          name: category,
          sort: (c + 1) * 10,
          status: 'enabled',
          createdAt: opened + HOUR,
          updatedAt: opened + HOUR,
        });
        items.forEach((item, k) => {
          const base = item.price * 100;
          const skus = skusOf(item);
          const at = opened + HOUR + k * MINUTE;
          const stock = rng.int(20, 300);
          const good = ctx.add('goods', {
            storeId: row.id,
            categoryId: cat.id,
            name: item.name,
            images: [] as string[],
            description: item.description,
            priceFen: base,
            originalPriceFen: rng.chance(0.3) ? base + rng.pick([200, 300, 500]) : null,
            stock,
            specs: item.specs
              ? item.specs.map(([name, extra]) => ({
                  name,
                  priceFen: base + extra * 100,
                  stock: rng.int(10, 150),
                }))
              : null,
            // A few items sold out for the day.
            status: rng.chance(0.06) ? 'offSale' : 'onSale',
            salesCount: 0,
            sort: (k + 1) * 10,
            createdAt: at,
            updatedAt: at,
          });
          ctx.later(async () => {
            good.images = [await imageOf(brand, item)];
          });
          store.goods.push({ row: good, skus });
        });
      });
    });
  });
  return stores;
}

export function seedPrinters(ctx: DemoContext, stores: readonly Store[]): void {
  const rng = ctx.random('printers');
  stores.forEach((store, s) => {
    const kinds = store.brand.kind === 'tea' ? ['前台小票机'] : ['前台小票机', '后厨打印机'];
    kinds.forEach((name, k) => {
      const status =
        store.row.status === 'closed'
          ? 'offline'
          : rng.weighted([
              ['online', 8],
              ['offline', 1],
              ['error', 1],
            ] as const);
      const lastSeenAt =
        status === 'online'
          ? ctx.now - rng.int(5, 90) * 1000
          : ctx.now - rng.int(2, 72) * HOUR - rng.int(0, 59) * MINUTE;
      const at = (store.row.createdAt as number) + DAY;
      ctx.add('printers', {
        storeId: store.row.id,
        name,
        kind: 'escpos-tcp',
        // A documentation address (RFC 5737 TEST-NET-1), not a LAN one: a demo install that
        // accepts an order must never send a receipt to a real device on its owner's network.
        host: `192.0.2.${(s + 1) * 10 + k}`,
        port: 9100,
        paperWidth: k === 0 ? '58' : '80',
        copies: k === 0 ? 1 : 2,
        autoPrintOnAccept: true,
        status,
        lastSeenAt,
        // The administrator set them up (a LAN address needs the monitoring permission).
        addressSetById: ctx.staff.admin,
        createdAt: at,
        updatedAt: Math.max(at, atChinaTime(ctx.now - 3 * DAY, 9)),
      });
    });
  });
}

/** How far back the demo keeps print jobs (a shop's printer log is about the last days). */
const PRINT_LOG_DAYS = 3;

/**
 * The printers' job log: a test page when each was set up, then every order accepted in the last
 * days on each printer of its store that prints on acceptance — printed, or, after the moment a
 * printer went offline or into error, failed after three tries with the reason the sender gives.
 */
export function seedPrintJobs(ctx: DemoContext): void {
  const rng = ctx.random('printJobs');
  const jobs: Record<string, unknown>[] = [];
  const printers = ctx.rows('printers');
  for (const printer of printers) {
    const at = (printer.createdAt as number) + 10 * MINUTE;
    jobs.push(
      job(printer, { kind: 'test', orderId: null, at, bytes: 760, ok: true, operatorId: ctx.staff.admin }),
    );
  }
  const since = ctx.now - PRINT_LOG_DAYS * DAY;
  for (const order of ctx.rows('orders')) {
    const acceptedAt = order.acceptedAt as number | null;
    if (acceptedAt === null || acceptedAt < since) continue;
    for (const printer of printers) {
      if (printer.storeId !== order.storeId || !printer.autoPrintOnAccept) continue;
      const at = acceptedAt + rng.int(1, 4) * 1000;
      const down = printer.status !== 'online' && at > (printer.lastSeenAt as number);
      const lines = (order.items as unknown[]).length;
      jobs.push(
        job(printer, {
          kind: 'receipt',
          orderId: order.id,
          at,
          bytes: (820 + 46 * lines + (order.remark ? 60 : 0)) * (printer.copies as number),
          ok: !down,
          operatorId: null,
        }),
      );
    }
  }
  jobs.sort((a, b) => (a.createdAt as number) - (b.createdAt as number));
  for (const row of jobs) ctx.add('printJobs', row);
}

function job(
  printer: Row,
  o: {
    kind: 'test' | 'receipt';
    orderId: number | null;
    at: number;
    bytes: number;
    ok: boolean;
    operatorId: number | null;
  },
): Record<string, unknown> {
  const where = `${printer.host}:${printer.port}`;
  const error =
    printer.status === 'offline'
      ? `打印机连接超时（${where}）`
      : `打印机拒绝连接（${where}），请检查端口是否为 9100`;
  return {
    printerId: printer.id,
    orderId: o.orderId,
    kind: o.kind,
    status: o.ok ? 'done' : 'failed',
    copies: o.kind === 'test' ? 1 : printer.copies,
    attempts: o.ok ? 1 : 3,
    error: o.ok ? null : error,
    bytes: o.bytes,
    operatorId: o.operatorId,
    printedAt: o.ok ? o.at : null,
    createdAt: o.at,
    updatedAt: o.ok ? o.at : o.at + 20_000,
  };
}
