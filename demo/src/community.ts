/**
 * Community (core definitions/community.ts): a tree of nodes, topics with replies (some pending
 * review, a few rejected), tags, the points those posts earned, and chat bots with keyword rules.
 */
import { DAY, type DemoContext, HOUR, MINUTE, type Row } from './context.js';
import type { Customer } from './people.js';

const NODES: readonly (readonly [string, string, readonly (readonly [string, string])[]])[] = [
  [
    '美食探店',
    '城市里值得一去的小店，真实体验分享',
    [
      ['杭州美食', '西湖边的面馆、小吃和新开的店'],
      ['上海美食', '本帮菜、弄堂小吃与咖啡馆'],
      ['北京美食', '胡同里的老字号和京味家常菜'],
    ],
  ],
  ['茶饮交流', '奶茶、果茶、纯茶，配方与门店测评', []],
  ['家常菜谱', '在家也能做的拿手菜，步骤和心得', []],
  ['外卖吐槽', '配送、包装、口味，说说你的外卖故事', []],
  [
    '法律咨询',
    '劳动、合同、消费维权，律师在线答疑',
    [
      ['劳动纠纷', '劳动合同、加班费、经济补偿'],
      ['合同纠纷', '租房、买卖、服务合同的违约与赔偿'],
    ],
  ],
  ['站务公告', '社区规则与活动通知', []],
];

const TAGS = [
  ['探店', 'orange'],
  ['测评', 'blue'],
  ['菜谱', 'green'],
  ['新手', 'cyan'],
  ['求助', 'red'],
  ['避雷', 'volcano'],
  ['推荐', 'gold'],
  ['打工人', 'purple'],
  ['劳动合同', 'geekblue'],
  ['公告', 'magenta'],
  ['优惠', 'lime'],
  ['外卖', 'orange'],
] as const;

/** Topics per node: title, then paragraphs of the body (Markdown). */
const TOPICS: Record<string, readonly (readonly [string, readonly string[], readonly string[]])[]> = {
  杭州美食: [
    [
      '文三路这家面馆的片儿川，是我心里的杭州第一',
      [
        '早上七点半就排起了队，雪菜和笋片都是当天现炒的，汤头清爽不油。',
        '**推荐指数**：★★★★★\n\n- 片儿川（大碗）25 元\n- 葱包桧 8 元',
        '唯一的缺点是座位少，高峰期建议外带。',
      ],
      ['探店', '推荐'],
    ],
    [
      '周末在湖滨逛了一圈，整理了五家值得吃的小店',
      [
        '从延安路一路走到南山路，挑了五家人均五十以内的店。',
        '1. 老字号面馆：虾爆鳝面鳝片很厚\n2. 新开的茶饮店：葡萄冻冻果肉多\n3. 葱包桧小摊：现做现卖',
        '大家还有什么私藏推荐？欢迎补充。',
      ],
      ['探店'],
    ],
    [
      '滨江上班族的午饭地图（持续更新）',
      [
        '公司搬到江南大道后，午饭成了每天最难的选择题。',
        '整理了步行十分钟内的十几家店，按价格和出餐速度排了个序。',
        '欢迎同在滨江的打工人补充！',
      ],
      ['打工人', '推荐'],
    ],
  ],
  上海美食: [
    [
      '南京西路的本帮菜，红烧肉真的浓油赤酱',
      [
        '朋友来上海一定要带他吃一次本帮菜，这家的红烧肉肥而不腻。',
        '响油鳝糊上桌时“滋啦”一声，仪式感满满。',
        '人均一百出头，周末建议提前订位。',
      ],
      ['探店', '测评'],
    ],
    [
      '生煎到底要不要蘸醋？',
      ['我是坚定的蘸醋派，醋能解腻还能提鲜。', '同事说原汁原味才是正道，你们怎么看？'],
      ['测评'],
    ],
    [
      '淮海中路新开的弄堂小馆踩雷了吗？',
      ['排了四十分钟，糖醋小排偏甜，腌笃鲜倒是很鲜。', '服务很热情，但出菜有点慢，可能是刚开业。'],
      ['避雷', '探店'],
    ],
  ],
  北京美食: [
    [
      '中关村的炸酱面，六必居的黄酱吃出了小时候的味道',
      ['菜码给得很足：黄瓜丝、心里美、豆芽、青豆……', '面条是手擀的，很有嚼劲，一大碗二十多块很实在。'],
      ['探店', '推荐'],
    ],
    [
      '卤煮到底好不好吃？第一次尝试的新手报告',
      ['作为南方人鼓起勇气点了一份卤煮火烧，意外地好吃！', '火烧吸满了汤汁，豆腐也很入味。下次还会再来。'],
      ['新手', '测评'],
    ],
  ],
  茶饮交流: [
    [
      '自制杨枝甘露的配方分享',
      [
        '芒果两个、西柚半个、椰浆 100ml、西米 30g。',
        '1. 西米煮到半透明焖十分钟\n2. 芒果一半打泥一半切丁\n3. 椰浆加牛奶调和，按层装杯',
        '冰镇后更好喝！',
      ],
      ['菜谱', '推荐'],
    ],
    [
      '暴打柠檬茶为什么要用鸭屎香？',
      ['鸭屎香的兰花香和柠檬的酸香特别搭，而且耐泡不苦涩。', '换成普通绿茶的话，香气会被柠檬盖住。'],
      ['测评'],
    ],
    [
      '少糖和三分糖到底差多少？',
      [
        '问了店员，少糖大约是正常糖的七成，三分糖是三成。',
        '控糖的朋友可以直接选无糖，再加一份芋泥增加甜味。',
      ],
      ['新手'],
    ],
  ],
  家常菜谱: [
    [
      '零失败的番茄炒蛋，秘诀在这两步',
      ['鸡蛋液里加一点点水，炒出来更嫩。', '番茄先去皮再炒，出汁后加少许糖提鲜。'],
      ['菜谱', '新手'],
    ],
    [
      '腌笃鲜在家怎么做？春笋季一定要试试',
      ['咸肉、鲜肉、春笋三样是灵魂，百叶结可以最后放。', '小火慢炖两小时，汤色奶白，咸鲜适中。'],
      ['菜谱'],
    ],
    [
      '宫保鸡丁的糊辣荔枝味怎么调？',
      ['碗汁：生抽、醋、糖、淀粉、水，比例 2:3:3:1:3。', '干辣椒和花椒小火炒出糊辣香，再下鸡丁大火快炒。'],
      ['菜谱'],
    ],
  ],
  外卖吐槽: [
    [
      '外卖汤洒了一半，平台赔付流程分享',
      ['拍照上传后十分钟就处理了，退了那份汤的钱。', '建议商家用带卡扣的汤碗，再套一层密封袋。'],
      ['外卖', '求助'],
    ],
    [
      '下雨天骑手迟到了二十分钟，我给了五星',
      ['雨那么大，骑手一进门就一直道歉，餐还是热的。', '大家下雨天点外卖多一点耐心吧。'],
      ['外卖'],
    ],
    [
      '满减和优惠券叠加的规则有点绕',
      ['满 50 减 6 的活动和 10 元券不能同时用，结算页写得不太清楚。', '希望平台能在下单前提示哪张券最划算。'],
      ['优惠', '外卖'],
    ],
  ],
  劳动纠纷: [
    [
      '试用期被辞退，公司说不用给补偿，对吗？',
      [
        '入职两个月，签了三年的劳动合同，试用期六个月。',
        '公司说我不符合录用条件，但一直没告诉我录用条件是什么。',
        '请问这种情况可以要求经济补偿吗？',
      ],
      ['求助', '劳动合同', '打工人'],
    ],
    [
      '加班费的计算基数到底是多少？',
      ['劳动合同上写的基本工资只有三千，实际每月到手八千多。', '公司按三千算加班费，这合法吗？'],
      ['劳动合同', '打工人'],
    ],
    [
      '没签书面劳动合同，可以主张二倍工资吗？',
      [
        '在一家餐厅做了五个月服务员，老板一直说“以后补签”。',
        '现在想离职，听说可以要求双倍工资，具体怎么操作？',
      ],
      ['求助', '劳动合同'],
    ],
  ],
  合同纠纷: [
    [
      '房东提前收房，违约金应该怎么算？',
      ['租房合同约定租期一年，房东住了半年说要卖房。', '合同里写了违约方支付一个月租金作为违约金，够吗？'],
      ['求助'],
    ],
    [
      '装修公司拖延工期，能否解除合同并要求赔偿？',
      ['合同约定六十天完工，现在已经过去九十天，还有一半没做完。', '想解除合同，已付的款能要回来吗？'],
      ['求助'],
    ],
  ],
  站务公告: [
    [
      '【公告】社区发帖规范（2025 年修订）',
      [
        '为了营造友善的交流环境，请遵守以下规则：',
        '1. 不发布广告和引流信息\n2. 不发布他人隐私\n3. 探店请注明自费或受邀',
        '违反规则的内容会被驳回，情节严重的将扣除积分。',
      ],
      ['公告'],
    ],
    [
      '【活动】晒出你的家常菜，赢储值卡',
      ['活动期间在“家常菜谱”发布原创菜谱，附成品图。', '点赞前十名各得 100 元储值卡一张。'],
      ['公告', '优惠'],
    ],
  ],
};

const REPLIES = [
  '同意楼主，这家我也去过，确实不错。',
  '收藏了，周末去试试。',
  '感谢分享，写得很详细！',
  '我倒觉得一般，可能是去的那天人太多了。',
  '请问人均大概多少？',
  '楼主说的这个问题我也遇到过，最后是找客服解决的。',
  '建议保留好聊天记录和付款凭证，必要时可以申请劳动仲裁。',
  '根据劳动合同法的规定，用人单位应当自用工之日起一个月内订立书面劳动合同。',
  '这个配方我试了，糖可以再少一点。',
  '已按楼主的方法做了，家里人都说好吃！',
  '骑手真的不容易，点个赞。',
  '合同里有没有写违约金的具体数额？没写的话可以按实际损失主张赔偿。',
  '顶一下，希望更多人看到。',
  '路过，学习了。',
];

export function seedCommunity(ctx: DemoContext, customers: readonly Customer[]): void {
  const rng = ctx.random('community');
  const started = ctx.now - 180 * DAY;
  const nodeIds = new Map<string, number>();
  let sort = 10;
  for (const [name, description, children] of NODES) {
    const parent = ctx.add('bbsNodes', {
      name,
      parentId: null,
      description,
      sort,
      createdAt: started,
      updatedAt: started,
    });
    nodeIds.set(name, parent.id);
    sort += 10;
    children.forEach(([child, desc], i) => {
      const row = ctx.add('bbsNodes', {
        name: child,
        parentId: parent.id,
        description: desc,
        sort: (i + 1) * 10,
        createdAt: started,
        updatedAt: started,
      });
      nodeIds.set(child, row.id);
    });
  }
  const tagIds = new Map<string, number>();
  for (const [name, color] of TAGS)
    tagIds.set(name, ctx.add('bbsTags', { name, color, createdAt: started, updatedAt: started }).id);

  const active = customers.filter((c) => c.row.status === 'active');
  const points: { at: number; row: Record<string, unknown> }[] = [];
  const topics: { at: number; row: Record<string, unknown>; posts: number }[] = [];
  const entries = Object.entries(TOPICS).flatMap(([node, list]) => list.map((t) => [node, ...t] as const));
  // Each topic once, then again with a follow-up title, to fill the lists.
  const all = [
    ...entries,
    ...entries.map(
      ([node, title, body, tags]) => [node, `${title.replace(/[？?]$/, '')}（续）`, body, tags] as const,
    ),
  ];
  all.forEach(([node, title, body, tags], i) => {
    const author = node === '站务公告' ? null : rng.pick(active);
    const at = ctx.now - rng.int(0, 170) * DAY - rng.int(0, 23) * HOUR - rng.int(0, 59) * MINUTE;
    // Announcements are published; of the rest the newest few wait for review, some were rejected.
    const status =
      node === '站务公告'
        ? 'published'
        : i % 11 === 3
          ? 'pending'
          : i % 17 === 5
            ? 'rejected'
            : i % 29 === 9
              ? 'deleted'
              : 'published';
    const flagged =
      status === 'pending' && i % 2 === 1 ? ['加微信'] : status === 'rejected' ? ['代购', '加微信'] : [];
    const content = [...body, flagged.length > 0 ? `有需要的可以${flagged.join('、')}私聊。` : '']
      .filter(Boolean)
      .join('\n\n');
    topics.push({
      at: status === 'pending' ? ctx.now - rng.int(10, 2 * 24 * 60) * MINUTE : at,
      posts: 0,
      row: {
        nodeId: nodeIds.get(node),
        authorId: author?.row.id ?? ctx.staff.admin,
        title,
        content,
        tags: tags.map((t) => tagIds.get(t) as number),
        pinned: node === '站务公告' && !title.endsWith('（续）'),
        locked: i % 23 === 7,
        replies: 0,
        views: status === 'published' ? rng.int(30, 5000) : rng.int(0, 20),
        status,
        flaggedWords: flagged,
        reporterId: status === 'rejected' ? rng.pick(active).row.id : null,
        reportReason: status === 'rejected' ? '疑似广告引流' : null,
        rejectReason: status === 'rejected' ? '含有广告引流信息，违反社区发帖规范第 1 条' : null,
      },
    });
  });
  topics.sort((a, b) => a.at - b.at);
  const added: Row[] = [];
  for (const t of topics) added.push(ctx.add('bbsTopics', { ...t.row, createdAt: t.at, updatedAt: t.at }));

  const posts: { at: number; row: Record<string, unknown> }[] = [];
  for (const topic of added) {
    const at = topic.createdAt as number;
    if (topic.status === 'published')
      points.push({ at, row: { userId: topic.authorId, change: 5, reason: '发布主题' } });
    if (topic.pinned)
      points.push({ at: at + HOUR, row: { userId: topic.authorId, change: 20, reason: '主题被置顶' } });
    if (topic.status === 'rejected')
      points.push({ at: at + 3 * HOUR, row: { userId: topic.authorId, change: -5, reason: '内容违规扣分' } });
    if (topic.status !== 'published') continue;
    const n = topic.locked ? rng.int(0, 2) : rng.int(0, 9);
    let last = at;
    let published = 0;
    for (let k = 0; k < n; k++) {
      const t = at + rng.int(5, 60 * 24 * 5) * MINUTE;
      if (t >= ctx.now) continue;
      const author = rng.pick(active);
      const status = t > ctx.now - DAY && k % 3 === 0 ? 'pending' : k % 19 === 7 ? 'rejected' : 'published';
      posts.push({
        at: t,
        row: {
          topicId: topic.id,
          authorId: author.row.id,
          content: rng.pick(REPLIES),
          status,
          flaggedWords: status === 'rejected' ? ['引流'] : [],
          reporterId: null,
          reportReason: null,
          rejectReason: status === 'rejected' ? '回复内容与主题无关' : null,
        },
      });
      if (status === 'published') {
        published++;
        last = Math.max(last, t);
        points.push({ at: t, row: { userId: author.row.id, change: 2, reason: '回复主题' } });
      }
    }
    topic.replies = published;
    topic.updatedAt = last;
  }
  posts.sort((a, b) => a.at - b.at);
  for (const { at, row } of posts) ctx.add('bbsPosts', { ...row, createdAt: at, updatedAt: at });
  for (const user of rng.sample(active, 20)) {
    const at = ctx.now - rng.int(0, 60) * DAY - rng.int(0, 600) * MINUTE;
    points.push({ at, row: { userId: user.row.id, change: 1, reason: '每日签到' } });
  }
  points.sort((a, b) => a.at - b.at);
  for (const { at, row } of points) ctx.add('bbsPoints', { ...row, createdAt: at, updatedAt: at });

  seedChatBots(ctx);
}

function seedChatBots(ctx: DemoContext): void {
  const bots = [
    [
      '门店客服助手',
      [
        ['营业时间', '各门店营业时间不同，可在小程序门店页查看；一般为 09:00-21:00。'],
        ['配送费', '配送费按门店设置收取，满足满减活动的订单以结算页为准。'],
        ['发票', '请提供发票抬头和税号，我们会在 24 小时内开具电子发票。'],
        ['退款', '已支付订单取消后，款项会原路退回；余额和储值卡支付即时到账。'],
        ['会员', '每消费 1 元积 1 分，积分达到门槛自动升级会员等级。'],
      ],
      true,
    ],
    [
      '法律咨询小助手',
      [
        ['劳动合同', '用人单位应当自用工之日起一个月内与劳动者订立书面劳动合同。详情可咨询平台认证律师。'],
        [
          '试用期',
          '劳动合同期限三个月以上不满一年的，试用期不得超过一个月；一年以上不满三年的，不得超过二个月。',
        ],
        [
          '加班费',
          '延长工作时间的，支付不低于工资百分之一百五十的工资报酬；休息日安排工作又不能安排补休的，支付不低于百分之二百。',
        ],
        [
          '违约金',
          '违约金的数额一般以实际损失为基础，过分高于损失的，当事人可以请求人民法院或者仲裁机构予以适当减少。',
        ],
        ['律师', '在“律师”频道可以按城市和擅长领域查找已认证的律师。'],
      ],
      true,
    ],
    [
      '社区小管家',
      [
        ['签到', '每日签到可获得 1 积分，连续签到七天额外奖励 5 积分。'],
        ['发帖', '发帖前请阅读《社区发帖规范》，广告和引流内容会被驳回。'],
        ['积分', '发布主题 +5，回复 +2，内容违规 -5。'],
      ],
      false,
    ],
  ] as const;
  // The filter's starter list (bbs/review → 敏感词): the words the seeded queue was flagged for.
  const words: readonly (readonly [string, string])[] = [
    ['加微信', 'ad'],
    ['加我微信', 'ad'],
    ['私聊', 'ad'],
    ['引流', 'ad'],
    ['代购', 'ad'],
    ['刷单', 'ad'],
    ['兼职日结', 'ad'],
    ['代开发票', 'ad'],
    ['赌博', 'gambling'],
    ['百家乐', 'gambling'],
    ['网赌', 'gambling'],
    ['六合彩', 'gambling'],
    ['裸聊', 'porn'],
    ['约炮', 'porn'],
    ['傻逼', 'abuse'],
    ['脑残', 'abuse'],
    ['翻墙', 'other'],
  ];
  for (const [word, category] of words) {
    const at = ctx.now - 120 * DAY;
    ctx.add('sensitiveWords', { word, category, enabled: true, createdAt: at, updatedAt: at });
  }
  bots.forEach(([name, rules, enabled], i) => {
    const at = ctx.now - (90 - i * 20) * DAY;
    ctx.add('chatBots', {
      name,
      rules: rules.map(([keyword, reply]) => ({ keyword, reply })),
      enabled,
      createdAt: at,
      updatedAt: at + 3 * DAY,
    });
  });
}
