/**
 * Music and movies (core definitions/media.ts): tracks with a real audio file each — a few
 * seconds of a public-domain melody synthesized as WAV (audio.ts), its duration the file's — and
 * album covers; movies (fictional, with fictional crews) with posters drawn by sharp, genres,
 * regions, years, ratings and synopses.
 */
import { encodeWav, MELODIES, type Melody, renderMelody, SAMPLE_RATE } from './audio.js';
import { DAY, type DemoContext, HOUR } from './context.js';
import { moviePoster, squareCard } from './images.js';
import { personNames } from './zh.js';

const TRACKS: readonly (readonly [string, string, string, Melody, number, string | null])[] = [
  [
    '茉莉花（八音盒版）',
    '万象八音盒',
    '江南小调',
    MELODIES.molihua,
    0,
    '[00:00.00]好一朵美丽的茉莉花\n[00:05.00]好一朵美丽的茉莉花\n[00:10.00]芬芳美丽满枝桠\n[00:13.00]又香又白人人夸',
  ],
  [
    '小星星（八音盒版）',
    '万象八音盒',
    '童谣',
    MELODIES.xiaoxingxing,
    0,
    '[00:00.00]一闪一闪亮晶晶\n[00:02.90]满天都是小星星',
  ],
  ['欢乐颂（八音盒版）', '万象八音盒', '古典小品', MELODIES.huanlesong, 2, null],
  [
    '送别（八音盒版）',
    '万象八音盒',
    '学堂乐歌',
    MELODIES.songbie,
    0,
    '[00:00.00]长亭外　古道边\n[00:03.40]芳草碧连天',
  ],
  ['铃儿响叮当（八音盒版）', '万象八音盒', '节日', MELODIES.linger, 5, null],
  [
    '两只老虎（八音盒版）',
    '万象八音盒',
    '童谣',
    MELODIES.liangzhilaohu,
    0,
    '[00:00.00]两只老虎　两只老虎\n[00:02.70]跑得快　跑得快',
  ],
];

export function seedTracks(ctx: DemoContext): void {
  const rng = ctx.random('tracks');
  const covers = new Map<string, Promise<string>>();
  TRACKS.forEach(([title, artist, album, melody, transpose, lyrics], i) => {
    const samples = renderMelody(melody, transpose);
    const wav = encodeWav(samples);
    const at = ctx.now - (60 - i * 7) * DAY;
    const row = ctx.add('tracks', {
      title,
      artist,
      album,
      cover: null as string | null,
      audio: '',
      durationS: Math.max(1, Math.round(samples.length / SAMPLE_RATE)),
      lyrics,
      status: i === 5 ? 'hidden' : 'published',
      createdAt: at,
      updatedAt: at,
    });
    let cover = covers.get(album);
    if (!cover) {
      cover = squareCard(rng.fork(album), 400, album, artist).then((img) => ctx.file(img, 'jpg'));
      covers.set(album, cover);
    }
    const coverUrl = cover;
    ctx.later(async () => {
      row.audio = await ctx.file(wav, 'wav');
      row.cover = await coverUrl;
    });
  });
}

const MOVIES: readonly (readonly [
  string,
  string,
  number,
  readonly string[],
  string,
  number,
  string,
  string,
])[] = [
  [
    '长河落日',
    'Sunset over the Long River',
    2023,
    ['drama', 'history'],
    'cn',
    8.4,
    '大漠孤烟，一个人守住一座驿站',
    '西北边陲的一座老驿站里，守站人老周迎来了最后一批过客。一场突如其来的沙暴，让素不相识的七个人被困在一起，各自的往事也随之浮出水面。',
  ],
  [
    '雾中的灯塔',
    'Lighthouse in the Fog',
    2021,
    ['mystery', 'drama'],
    'cn',
    7.9,
    '灯每晚都亮，守灯人却失踪了',
    '东海小岛上的灯塔每晚依旧准时亮起，可守灯人已经失踪三天。前来调查的年轻警员发现，岛上每个人都在隐瞒同一件事。',
  ],
  [
    '第十三号站台',
    'Platform 13',
    2022,
    ['thriller', 'mystery'],
    'cn',
    7.2,
    '末班车开走之后',
    '深夜的地铁站，一名清洁工在监控里看到了本不该存在的第十三号站台。为了证明自己没有看错，她决定在末班车之后留下来。',
  ],
  [
    '外卖江湖',
    'Delivery Heroes',
    2024,
    ['comedy', 'drama'],
    'cn',
    7.6,
    '三十分钟，送达一座城市的温度',
    '刚失业的程序员阿杰成为了一名外卖骑手。在风雨无阻的奔波中，他结识了形形色色的顾客，也重新找到了生活的方向。',
  ],
  [
    '弄堂里的夏天',
    'Summer in the Alley',
    2020,
    ['family', 'comedy'],
    'cn',
    8.1,
    '那一年夏天，外婆家的石库门',
    '十岁的小满被送到上海外婆家过暑假。狭窄的弄堂、热闹的邻居和一只爱偷鱼的猫，构成了她童年里最难忘的一个夏天。',
  ],
  [
    '星际邮差',
    'Interstellar Courier',
    2025,
    ['scifi', 'adventure'],
    'cn',
    7.0,
    '把一封信送到四光年之外',
    '2190 年，星际邮政公司的老邮差接到最后一单任务：把一封手写信送往半人马座的殖民地。途中，他发现这封信改变了整个航线的命运。',
  ],
  [
    '茶山十年',
    'Ten Years on the Tea Hill',
    2019,
    ['documentary'],
    'cn',
    8.8,
    '一片叶子，一家三代',
    '纪录片跟拍龙井茶村的一户茶农整整十年，从采茶、炒茶到直播带货，记录了传统手艺在时代变迁中的坚守与转身。',
  ],
  [
    '港湾夜未眠',
    'Sleepless Harbour',
    2018,
    ['romance', 'drama'],
    'hk',
    7.7,
    '维港的灯火，照亮两个失眠的人',
    '深夜的天星小轮上，失眠的电台主持人与刚下夜班的护士不期而遇。此后每个凌晨，他们都在同一班船上交换彼此的故事。',
  ],
  [
    '山城迷踪',
    'Lost in the Mountain City',
    2022,
    ['crime', 'action'],
    'cn',
    7.3,
    '八层楼的街道，藏着一个秘密',
    '在层层叠叠的山城里，一名退休老刑警与外卖小哥联手，追查一桩二十年前的悬案。',
  ],
  [
    '纸飞机',
    'Paper Planes',
    2021,
    ['animation', 'family'],
    'cn',
    8.6,
    '折一只纸飞机，飞回小时候',
    '一只会说话的纸飞机带着留守儿童小豆，飞越山川去城市寻找打工的父母。',
  ],
  [
    'The Quiet Orchard',
    'The Quiet Orchard',
    2020,
    ['drama', 'family'],
    'us',
    7.8,
    '果园里的最后一个秋天',
    '一位老农在果园的最后一个收获季，与多年未见的女儿重新学习如何相处。',
  ],
  [
    '北国之春',
    'Spring in the North',
    2017,
    ['romance'],
    'jp',
    7.5,
    '雪化之后，你会回来吗',
    '北海道小镇的邮局职员每年春天都会收到一封没有署名的信。今年，信里夹着一张车票。',
  ],
  [
    '午夜厨房',
    'Midnight Kitchen',
    2023,
    ['drama', 'comedy'],
    'kr',
    7.9,
    '凌晨十二点开门的小饭馆',
    '首尔街角的小饭馆只在午夜营业，每一位客人都带着一道想吃的菜和一个故事。',
  ],
  [
    '迷雾伦敦',
    'London in the Mist',
    2019,
    ['mystery', 'crime'],
    'gb',
    7.1,
    '大雾锁城七日',
    '1952 年伦敦大雾期间，一名年轻的记者在调查一起失踪案时，揭开了城市背后的秘密。',
  ],
  [
    '天空之城的守望者',
    'Keepers of the Sky Town',
    2024,
    ['fantasy', 'animation', 'adventure'],
    'cn',
    8.2,
    '云层之上，还有一座城',
    '少女阿宁意外登上一座漂浮在云端的古城，她必须在城市坠落之前找到失落的“风之钟”。',
  ],
  [
    '归途',
    'The Way Home',
    2016,
    ['drama', 'biography'],
    'tw',
    8.0,
    '回家的路，走了四十年',
    '根据一位老兵的真实经历改编：离家四十年后，他终于踏上了回乡的路。',
  ],
];

export function seedMovies(ctx: DemoContext): void {
  const rng = ctx.random('movies');
  const people = personNames(rng, MOVIES.length * 4);
  MOVIES.forEach(([title, original, year, genres, region, rating, tagline, synopsis], i) => {
    const director = people[i * 4]?.name ?? '佚名';
    const cast = [1, 2, 3].map((k) => people[i * 4 + k]?.name ?? '');
    const at = ctx.now - rng.int(5, 200) * DAY - rng.int(0, 20) * HOUR;
    const row = ctx.add('movies', {
      title,
      originalTitle: original,
      year,
      director,
      cast,
      genres: [...genres],
      region,
      rating,
      poster: null as string | null,
      synopsis: `${synopsis}（本片为演示数据，片名与主创均为虚构。）`,
      video: null,
      videoUrl: null,
      status: i === 13 ? 'hidden' : 'published',
      createdAt: at,
      updatedAt: at,
    });
    ctx.later(async () => {
      row.poster = await ctx.file(await moviePoster(rng.fork(title), title, original, tagline), 'jpg');
    });
  });
}
