/**
 * The blog (core definitions/content.ts): photos with real image files (1200×800 JPEG and a
 * 400×267 thumbnail, drawn by sharp) in albums, and Markdown articles composed from paragraphs
 * on a few themes — most published, some drafts — with covers taken from the gallery.
 */
import { CHINA_OFFSET_MS } from '@wanxiang/core';
import { DAY, type DemoContext, HOUR, MINUTE } from './context.js';
import { photoImage } from './images.js';
import type { Rng } from './random.js';

const PHOTOS: readonly (readonly [string, string, readonly string[]])[] = [
  ['断桥残雪', '西湖四季', ['西湖', '冬天', '杭州']],
  ['苏堤春晓', '西湖四季', ['西湖', '春天', '杭州']],
  ['曲院风荷', '西湖四季', ['西湖', '夏天', '荷花']],
  ['平湖秋月', '西湖四季', ['西湖', '秋天', '杭州']],
  ['雷峰夕照', '西湖四季', ['西湖', '日落']],
  ['外滩的清晨', '上海街景', ['上海', '外滩', '建筑']],
  ['武康路的梧桐', '上海街景', ['上海', '梧桐', '秋天']],
  ['陆家嘴夜色', '上海街景', ['上海', '夜景']],
  ['弄堂里的午后', '上海街景', ['上海', '弄堂', '生活']],
  ['南锣鼓巷', '北京胡同', ['北京', '胡同']],
  ['什刹海的冰场', '北京胡同', ['北京', '冬天', '什刹海']],
  ['景山看故宫', '北京胡同', ['北京', '故宫', '建筑']],
  ['鼓楼的鸽子', '北京胡同', ['北京', '鼓楼', '生活']],
  ['一碗片儿川', '人间烟火', ['美食', '面', '杭州']],
  ['生煎出锅', '人间烟火', ['美食', '上海']],
  ['炸酱面的八样菜码', '人间烟火', ['美食', '北京']],
  ['杨枝甘露', '人间烟火', ['饮品', '甜品']],
  ['龙井村的茶田', '山野', ['茶', '杭州', '春天']],
  ['莫干山的竹海', '山野', ['竹林', '徒步']],
  ['香山红叶', '山野', ['北京', '秋天', '红叶']],
  ['千岛湖日出', '山野', ['湖', '日出']],
  ['九溪烟树', '山野', ['杭州', '徒步', '溪流']],
  ['长城的雪', '山野', ['北京', '长城', '冬天']],
  ['滴水湖的风', '山野', ['上海', '湖', '风车']],
];

export function seedPhotos(ctx: DemoContext): void {
  const rng = ctx.random('photos');
  PHOTOS.forEach(([title, album, tags], i) => {
    const takenAt = ctx.now - rng.int(10, 700) * DAY - rng.int(6, 18) * HOUR;
    const created = Math.min(ctx.now - DAY, takenAt + rng.int(1, 20) * DAY);
    const row = ctx.add('photos', {
      title,
      image: '',
      thumbnail: null as string | null,
      album,
      tags: [...tags],
      takenAt,
      status: i % 9 === 8 ? 'hidden' : 'published',
      createdAt: created,
      updatedAt: created,
    });
    const date = new Date(takenAt + CHINA_OFFSET_MS);
    const caption = `${album} · ${date.getUTCFullYear()} 年 ${date.getUTCMonth() + 1} 月`;
    const images = photoImage(rng.fork(title), title, caption).then(async ({ full, thumbnail }) => ({
      image: await ctx.file(full, 'jpg'),
      thumbnail: await ctx.file(thumbnail, 'jpg'),
    }));
    ctx.later(async () => {
      const { image, thumbnail } = await images;
      row.image = image;
      row.thumbnail = thumbnail;
    });
  });
}

type Section = readonly [string, readonly string[]];

interface Theme {
  tags: readonly string[];
  /** Title, its opening paragraph, and sections of its own (else the theme's). */
  articles: readonly (readonly [string, string, (readonly Section[])?])[];
  sections: readonly Section[];
  extras: readonly string[];
}

const THEMES: readonly Theme[] = [
  {
    tags: ['城市', '随笔'],
    articles: [
      [
        '在杭州住了十年，我终于学会了慢下来',
        '搬到杭州的第一年，我总是匆匆忙忙，地铁、工位、外卖，日子像被按了快进键。直到某个周末的清晨，我在西湖边坐了一个上午，才发现自己错过了太多。',
      ],
      [
        '上海的梧桐区，适合一个人走很久',
        '有人说，认识一座城市最好的方式是用脚去丈量。于是我给自己定了一个小目标：每个周末，在梧桐区走一条从没走过的马路。',
      ],
      [
        '北京的胡同里，藏着一座城市的记忆',
        '城市的气质往往藏在最日常的细节里：胡同口早点摊的蒸汽，院门上斑驳的春联，还有傍晚时分陆续亮起的窗灯。',
      ],
      [
        '一座城市的早餐，是它最诚实的样子',
        '想了解一座城市，不妨起个大早去吃一顿早餐。杭州的片儿川、上海的粢饭团、北京的豆汁焦圈，各有各的脾气。',
      ],
      [
        '下雨天的城市漫步指南',
        '很多人觉得下雨天只适合待在家里，我却偏爱撑一把伞出门。雨天的街道行人稀少，连平时拥挤的景点都安静了下来。',
      ],
    ],
    sections: [
      [
        '清晨',
        [
          '六点半的街道还很安静，只有环卫工人和早起遛狗的老人。面馆的老板已经在熬汤，大锅里的骨头汤咕嘟咕嘟地冒着泡。',
          '我最喜欢这个时段的光线，斜斜地穿过梧桐叶，把整条街染成淡淡的金色。',
        ],
      ],
      [
        '街角',
        [
          '拐过一个街角，是一家开了二十多年的老书店。店主认得每一位常客，也总能推荐一本你恰好想读的书。',
          '隔壁的咖啡馆换了三任老板，唯一没变的是窗边那张旧木桌。',
        ],
      ],
      [
        '傍晚',
        [
          '天色暗下来时，沿街的小馆子陆续坐满了人。下班的年轻人、散步的一家三口、约会的情侣，各自有各自的热闹。',
          '走累了，就在路边的长椅坐一会儿，看着人来人往，觉得这座城市也有温柔的一面。',
        ],
      ],
      [
        '写在最后',
        [
          '慢下来不是停下来，而是给自己留一点余地，去看见那些原本就在身边的美好。',
          '下一个周末，你打算去哪里走走？',
        ],
      ],
    ],
    extras: [
      '> 城市不会因为你走得快就给你更多，但会因为你停下来而让你看见更多。',
      '- 最佳季节：春秋两季\n- 推荐时段：清晨与傍晚\n- 必备装备：一双舒服的鞋',
    ],
  },
  {
    tags: ['美食', '探店'],
    articles: [
      [
        '一碗好面的标准：汤、面、浇头缺一不可',
        '吃过的面不少，但能让人记住的并不多。一碗好面，汤要清而不寡，面要韧而不硬，浇头要现炒现浇。',
      ],
      [
        '本帮菜入门：从红烧肉到腌笃鲜',
        '很多人对本帮菜的印象是“甜”，其实浓油赤酱背后，是对火候与时间的耐心。',
      ],
      [
        '奶茶店越开越多，我们到底在喝什么',
        '写这篇文章之前，我连续一周每天点一杯不同的茶饮，试图弄明白它们的差别究竟在哪里。',
      ],
      [
        '外卖时代，堂食还有什么意义',
        '手机点一点，三十分钟热饭就送到楼下。可我还是愿意在周末走进一家小馆子，坐下来等一盘刚出锅的菜。',
      ],
      [
        '跟着季节吃：春笋、夏荷、秋蟹、冬笋',
        '老一辈人讲究“不时不食”，什么季节吃什么东西。应季的食材最便宜，也最好吃。',
      ],
    ],
    sections: [
      [
        '关于汤',
        [
          '好的汤底需要时间。骨头要先焯水去血沫，再用小火慢熬三四个小时，汤色才会清亮而有层次。',
          '有些店为了省事用浓缩汤料，喝第一口很鲜，第二口就腻了。',
        ],
      ],
      [
        '关于火候',
        [
          '红烧肉讲究“小火慢炖、大火收汁”。炖的时候要耐得住性子，收汁时则要眼疾手快，稍不留神就会焦。',
          '同样的食材，火候差一点，味道就差很多，这也是家常菜最难的地方。',
        ],
      ],
      [
        '关于选材',
        [
          '应季的食材本身就是最好的调味。春天的笋、夏天的毛豆、秋天的螃蟹，不需要复杂的做法就很好吃。',
          '我很佩服那些每天清晨亲自去市场挑菜的老板，这份坚持会体现在每一道菜里。',
        ],
      ],
      [
        '我的推荐',
        [
          '如果只能推荐一道，我会选最朴素的那一道。越简单的菜，越能看出一家店的功力。',
          '欢迎在评论区分享你心中的“白月光”小店。',
        ],
      ],
    ],
    extras: [
      '| 菜品 | 价格 | 推荐指数 |\n| --- | --- | --- |\n| 片儿川 | ¥22 | ★★★★★ |\n| 红烧肉 | ¥58 | ★★★★☆ |\n| 杨枝甘露 | ¥22 | ★★★★☆ |',
      '> 人间烟火气，最抚凡人心。',
    ],
  },
  {
    tags: ['技术', '架构'],
    articles: [
      [
        '一个注册表驱动整个后台：我们的资源定义实践',
        '做后台系统的人大概都有这样的体会：每加一个功能，就要改数据库、接口、表单和列表四个地方，稍不注意就会不一致。',
        [
          [
            '问题',
            [
              '最初的实现很直接：每个页面一份代码，字段和校验各写各的。三个月后，同一个字段在三个地方有三种校验规则。',
              '更麻烦的是，命令行工具和前端对同一个接口的理解也不一样。',
            ],
          ],
          [
            '思路',
            [
              '我们把每个资源写成一份声明：字段类型、中文标签、校验规则、可筛选可排序的标记、关联关系和操作。服务端、前端和命令行都从这份声明派生各自需要的东西。',
              '这和 Django 的 ModelAdmin 很像，只不过三端共享同一份定义。',
            ],
          ],
          [
            '实现',
            [
              '校验统一由 zod 生成，错误信息使用中文模板，例如“请输入手机号”“长度在 3 到 32 个字符之间”。',
              "```ts\nconst orders = defineResource({\n  name: 'orders',\n  title: '订单',\n  fields: { orderNo: f.string('订单号', { unique: true }) },\n});\n```",
            ],
          ],
          [
            '效果',
            [
              '新增一个资源从半天缩短到半小时，而且列表、表单、接口文档和命令行自动保持一致。',
              '当然，也有声明表达不了的地方，这时我们保留了自定义页面和处理函数作为出口。',
            ],
          ],
        ],
      ],
      [
        '百万订单下的分页：为什么我们放弃了 OFFSET',
        '当订单表从一万行增长到一百万行，原本毫秒级的列表接口突然变慢了。这篇文章记录我们排查和优化的过程。',
        [
          [
            '现象',
            [
              '翻到第五千页时，接口要两百多毫秒；导出全部订单时，其他人的列表请求也跟着变慢。',
              '执行计划显示，OFFSET 需要先数过前面的十万行，再把它们丢掉。',
            ],
          ],
          [
            '键集分页',
            [
              '导出和迭代改用“上一页最后一行的排序键”作为下一页的起点：WHERE (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT 500。',
              '每一页的代价都一样，和翻到第几页无关。',
            ],
          ],
          [
            '总数',
            [
              '列表要显示“共 N 条”，每次都 COUNT(*) 的代价比查一页数据还高。我们把总数按筛选条件缓存，写入时失效。',
              '页面没满时，总数就是偏移量加上本页行数，根本不用数。',
            ],
          ],
        ],
      ],
      [
        'SQLite 还是 PostgreSQL？两者都要',
        '小团队部署一台机器就够了，大客户却需要主从和备份。我们决定同一套代码同时支持 SQLite 和 PostgreSQL。',
        [
          [
            '约定',
            [
              '时间统一存为毫秒时间戳（BIGINT），布尔值存为 0/1，JSON 存为文本。这样两种数据库的行为完全一致。',
              '表结构由资源定义生成，迁移文件按编号冻结，不随定义改动而重写历史。',
            ],
          ],
          [
            '差异',
            [
              'PostgreSQL 的 BIGINT 默认返回字符串，我们在连接池里把它解析成数字。',
              'SQLite 在 WAL 模式下读写可以并发，单机场景下性能相当不错。',
            ],
          ],
          ['测试', ['每个测试在两种数据库上各跑一遍，PostgreSQL 的测试各用一个独立的 schema，互不干扰。']],
        ],
      ],
      [
        '中文全文检索：二元分词的朴素力量',
        '中文没有天然的空格分词，而常用的三元组索引对两个字的词又无能为力。我们最后选择了一个看起来很“土”的办法。',
        [
          [
            '问题',
            [
              '用户最常搜的是“合同”“劳动”这样的两字词，甚至是一个“法”字。SQLite 的 trigram 分词器对少于三个字符的查询什么也匹配不到。',
              'PostgreSQL 的 pg_trgm 在 C 语言环境下还会跳过中文字符。',
            ],
          ],
          [
            '二元分词',
            [
              '我们把正文切成相邻两个字的组合（“劳动合同”→“劳动 动合 合同”），再加上单字，写进一个带索引的列。',
              '查询同样切分后匹配，标题命中排在前面，再截取带高亮的片段。这和 Lucene 的 CJK 分析器是同一个思路。',
            ],
          ],
        ],
      ],
      [
        '小票打印机的 ESC/POS 指令入门',
        '门店后厨的小票打印机大多支持 ESC/POS 指令，通过 9100 端口接收原始字节。了解几条常用指令，就能打出一张清晰的小票。',
        [
          [
            '常用指令',
            [
              'ESC @ 初始化打印机，ESC a 设置对齐方式，GS ! 设置字号，GS V 切纸。',
              '中文需要先切换到 GBK 编码，否则会打出乱码。',
            ],
          ],
          [
            '排版',
            [
              '58 毫米的纸每行大约 32 个英文字符、16 个汉字；80 毫米的纸每行 48 个英文字符。',
              '商品名太长时要折行，金额右对齐，合计加粗放大。',
            ],
          ],
        ],
      ],
    ],
    sections: [],
    extras: ['> 让正确的事情成为最容易做的事情。'],
  },
  {
    tags: ['读书', '随笔'],
    articles: [
      [
        '重读《边城》：那些没有说出口的话',
        '第一次读《边城》是在高中，只记得翠翠和那条渡船。十几年后重读，才读懂了字里行间的惆怅。',
      ],
      [
        '一年读了四十本书，我的书单和方法',
        '很多人问我怎么做到一年读四十本书。其实没有什么秘诀，只是把碎片时间从手机上挪到了书上。',
      ],
      [
        '《人间词话》里的三种境界',
        '王国维说，古今成大事业、大学问者，必经过三种境界。这段话我读过很多遍，每个年纪读来都有不同的感受。',
      ],
      [
        '为什么我们需要慢慢读一本书',
        '短视频把一本书压缩成三分钟，听起来很高效，可读书的乐趣恰恰在那些被压缩掉的部分。',
      ],
    ],
    sections: [
      [
        '重读',
        [
          '年少时读书，追的是情节；年长后读书，品的是留白。作者没有写出来的部分，往往才是最动人的。',
          '书还是那本书，变的是读书的人。',
        ],
      ],
      [
        '方法',
        [
          '我的方法很简单：随身带一本书，通勤、排队、等人的时候读几页。一天二十分钟，一年下来就是一百多个小时。',
          '读完一本书，用三句话写下最打动自己的地方。',
        ],
      ],
      [
        '书单',
        [
          '- 《边城》沈从文\n- 《人间词话》王国维\n- 《围城》钱锺书\n- 《浮生六记》沈复',
          '这些书都不长，适合在一个安静的周末读完。',
        ],
      ],
    ],
    extras: [
      '> 古今之成大事业、大学问者，必经过三种之境界。',
      '读书不是为了记住，而是为了在某个时刻被唤醒。',
    ],
  },
  {
    tags: ['旅行', '攻略'],
    articles: [
      [
        '莫干山两天一夜：竹海、民宿和一碗土鸡汤',
        '周五下班后从杭州出发，一个半小时就到了莫干山脚下。山里的空气和城市完全不同，连呼吸都变得轻松。',
      ],
      [
        '千岛湖骑行攻略：环湖一百公里的风景',
        '骑行环湖是我今年最想完成的一件事。准备了两个月，终于在一个晴朗的秋日出发了。',
      ],
      [
        '北京香山看红叶，错峰出行的小技巧',
        '每年十月底到十一月初，香山的黄栌叶变红，整座山像着了火。可人也多得像赶集，错峰出行就成了一门学问。',
      ],
    ],
    sections: [
      [
        '交通',
        [
          '自驾最方便，但节假日容易堵车，建议早上八点前出发。',
          '公共交通也很方便，提前查好末班车时间，别在山里错过回程。',
        ],
      ],
      [
        '住宿',
        [
          '景区附近的民宿大多依山而建，推开窗就是风景。旺季需要提前两周预订。',
          '我住的那家老板娘做的土鸡汤，是这趟旅行最难忘的味道。',
        ],
      ],
      [
        '行程',
        [
          '第一天下午慢慢走、慢慢看，傍晚找个高处看日落；第二天一早出发，中午前返程。',
          '行程不必排满，留一些发呆的时间，才是旅行的意义。',
        ],
      ],
    ],
    extras: [
      '- 最佳季节：春、秋\n- 人均花费：约 800 元\n- 必带：防晒、雨具、舒适的鞋',
      '> 读万卷书，行万里路。',
    ],
  },
];

function articleBody(
  rng: Rng,
  theme: Theme,
  intro: string,
  own: readonly Section[] | undefined,
): { content: string; summary: string } {
  const pool = own ?? theme.sections;
  // A few of the theme's sections, in their order; every section of an article's own.
  const sections = own
    ? pool
    : [
        ...rng.sample(
          pool.map((_s, i) => i),
          rng.int(2, Math.min(4, pool.length)),
        ),
      ]
        .sort((a, b) => a - b)
        .map((i) => pool[i] as Section);
  const parts = [intro];
  for (const [heading, paragraphs] of sections) {
    parts.push(`## ${heading}`);
    parts.push(...(own ? paragraphs : paragraphs.filter((_p, i) => i === 0 || rng.chance(0.7))));
    if (rng.chance(0.3)) parts.push(rng.pick(theme.extras));
  }
  const firstSentence = intro.split('。')[0] ?? intro;
  return { content: parts.join('\n\n'), summary: `${firstSentence}。`.slice(0, 300) };
}

export function seedArticles(ctx: DemoContext): void {
  const rng = ctx.random('articles');
  const photos = ctx.rows('photos');
  const list: { at: number; row: Record<string, unknown> }[] = [];
  let n = 0;
  for (const theme of THEMES) {
    for (const [title, intro, own] of theme.articles) {
      const { content, summary } = articleBody(rng, theme, intro, own);
      const draft = n % 6 === 4;
      const created = ctx.now - rng.int(2, 300) * DAY - rng.int(0, 600) * MINUTE;
      const publishedAt = draft ? null : Math.min(ctx.now - HOUR, created + rng.int(1, 72) * HOUR);
      const extraTag = rng.pick(['生活', '记录', '分享', '原创']);
      list.push({
        at: created,
        row: {
          title,
          cover: null as string | null,
          coverPhoto: rng.pick(photos).id,
          summary,
          content,
          tags: [...theme.tags, extraTag],
          status: draft ? 'draft' : 'published',
          publishedAt,
          views: draft ? 0 : rng.int(50, 12_000),
          updatedAt: publishedAt ?? created + rng.int(1, 48) * HOUR,
        },
      });
      n++;
    }
  }
  list.sort((a, b) => a.at - b.at);
  for (const { at, row } of list) {
    const { coverPhoto, ...fields } = row;
    const article = ctx.add('articles', {
      ...fields,
      createdAt: at,
      updatedAt: Math.min(ctx.now, row.updatedAt as number),
    });
    const photo = photos.find((p) => p.id === coverPhoto);
    // Covers are the photos' full images, known once sharp has drawn them.
    if (photo)
      ctx.whenFilesStored(() => {
        article.cover = photo.image || null;
      });
  }
}
