/**
 * Chinese building blocks shared by the demo areas: people's names (with pinyin for user names),
 * phone numbers, and places in 北京, 上海 and 杭州 with plausible coordinates.
 */
import type { Rng } from './random.js';

/** Common surnames, by frequency rank, with pinyin. */
const SURNAMES: readonly (readonly [string, string])[] = [
  ['王', 'wang'],
  ['李', 'li'],
  ['张', 'zhang'],
  ['刘', 'liu'],
  ['陈', 'chen'],
  ['杨', 'yang'],
  ['黄', 'huang'],
  ['赵', 'zhao'],
  ['吴', 'wu'],
  ['周', 'zhou'],
  ['徐', 'xu'],
  ['孙', 'sun'],
  ['马', 'ma'],
  ['朱', 'zhu'],
  ['胡', 'hu'],
  ['郭', 'guo'],
  ['何', 'he'],
  ['林', 'lin'],
  ['高', 'gao'],
  ['罗', 'luo'],
  ['郑', 'zheng'],
  ['梁', 'liang'],
  ['谢', 'xie'],
  ['宋', 'song'],
  ['唐', 'tang'],
  ['许', 'xu'],
  ['韩', 'han'],
  ['冯', 'feng'],
  ['邓', 'deng'],
  ['曹', 'cao'],
  ['彭', 'peng'],
  ['曾', 'zeng'],
  ['沈', 'shen'],
  ['蒋', 'jiang'],
  ['陆', 'lu'],
  ['叶', 'ye'],
  ['潘', 'pan'],
  ['方', 'fang'],
  ['顾', 'gu'],
  ['钱', 'qian'],
];

/** Characters of given names, with pinyin. */
const GIVEN: readonly (readonly [string, string])[] = [
  ['伟', 'wei'],
  ['芳', 'fang'],
  ['娜', 'na'],
  ['敏', 'min'],
  ['静', 'jing'],
  ['丽', 'li'],
  ['强', 'qiang'],
  ['磊', 'lei'],
  ['军', 'jun'],
  ['洋', 'yang'],
  ['勇', 'yong'],
  ['艳', 'yan'],
  ['杰', 'jie'],
  ['娟', 'juan'],
  ['涛', 'tao'],
  ['明', 'ming'],
  ['超', 'chao'],
  ['秀', 'xiu'],
  ['霞', 'xia'],
  ['平', 'ping'],
  ['刚', 'gang'],
  ['桂', 'gui'],
  ['英', 'ying'],
  ['华', 'hua'],
  ['文', 'wen'],
  ['辉', 'hui'],
  ['玲', 'ling'],
  ['建', 'jian'],
  ['宇', 'yu'],
  ['浩', 'hao'],
  ['晨', 'chen'],
  ['欣', 'xin'],
  ['怡', 'yi'],
  ['雪', 'xue'],
  ['梅', 'mei'],
  ['琳', 'lin'],
  ['婷', 'ting'],
  ['博', 'bo'],
  ['轩', 'xuan'],
  ['子', 'zi'],
  ['涵', 'han'],
  ['思', 'si'],
  ['雨', 'yu'],
  ['嘉', 'jia'],
  ['一', 'yi'],
  ['诺', 'nuo'],
  ['晓', 'xiao'],
  ['东', 'dong'],
  ['海', 'hai'],
  ['佳', 'jia'],
  ['志', 'zhi'],
  ['鹏', 'peng'],
  ['凯', 'kai'],
  ['琪', 'qi'],
  ['瑶', 'yao'],
  ['悦', 'yue'],
  ['亮', 'liang'],
  ['斌', 'bin'],
  ['颖', 'ying'],
  ['倩', 'qian'],
];

export interface PersonName {
  name: string;
  pinyin: string;
  surname: string;
}

/** Surnames weighted by their rank (made once: the bench seeder names 100 000 users). */
const SURNAME_WEIGHTS = SURNAMES.map((p, i) => [p, 40 - i] as const);

export function personName(rng: Rng): PersonName {
  const [s, sp] = rng.weighted(SURNAME_WEIGHTS);
  const one = rng.chance(0.3);
  const g1 = rng.pick(GIVEN);
  const g2 = rng.pick(GIVEN);
  const name = one ? s + g1[0] : s + g1[0] + g2[0];
  const pinyin = one ? sp + g1[1] : sp + g1[1] + g2[1];
  return { name, pinyin, surname: s };
}

/** Distinct names (a company's staff, a firm's lawyers). */
export function personNames(rng: Rng, n: number): PersonName[] {
  const seen = new Set<string>();
  const out: PersonName[] = [];
  while (out.length < n) {
    const p = personName(rng);
    if (seen.has(p.name)) continue;
    seen.add(p.name);
    out.push(p);
  }
  return out;
}

const MOBILE_PREFIXES = [
  '130',
  '131',
  '132',
  '135',
  '136',
  '137',
  '138',
  '139',
  '150',
  '151',
  '152',
  '157',
  '158',
  '159',
  '166',
  '177',
  '180',
  '182',
  '185',
  '186',
  '187',
  '188',
  '189',
  '191',
  '198',
  '199',
];

export function mobile(rng: Rng): string {
  return rng.pick(MOBILE_PREFIXES) + rng.digits(8);
}

/** Distinct mobile numbers. */
export function mobiles(rng: Rng, n: number): string[] {
  const seen = new Set<string>();
  while (seen.size < n) seen.add(mobile(rng));
  return [...seen];
}

export type City = '北京' | '上海' | '杭州';

export interface Place {
  city: City;
  district: string;
  street: string;
  lng: number;
  lat: number;
}

/** Streets by district, with a point near each. */
export const PLACES: readonly Place[] = [
  { city: '北京', district: '朝阳区', street: '建国路', lng: 116.4808, lat: 39.9087 },
  { city: '北京', district: '朝阳区', street: '望京街', lng: 116.4813, lat: 39.9962 },
  { city: '北京', district: '海淀区', street: '中关村大街', lng: 116.3162, lat: 39.9839 },
  { city: '北京', district: '东城区', street: '东直门内大街', lng: 116.4267, lat: 39.9413 },
  { city: '北京', district: '西城区', street: '西单北大街', lng: 116.3743, lat: 39.9127 },
  { city: '上海', district: '静安区', street: '南京西路', lng: 121.4558, lat: 31.2287 },
  { city: '上海', district: '徐汇区', street: '淮海中路', lng: 121.4459, lat: 31.2122 },
  { city: '上海', district: '浦东新区', street: '张杨路', lng: 121.5236, lat: 31.2297 },
  { city: '上海', district: '黄浦区', street: '四川中路', lng: 121.4862, lat: 31.2365 },
  { city: '上海', district: '长宁区', street: '愚园路', lng: 121.4264, lat: 31.2209 },
  { city: '杭州', district: '西湖区', street: '文三路', lng: 120.1306, lat: 30.2786 },
  { city: '杭州', district: '上城区', street: '延安路', lng: 120.1694, lat: 30.2583 },
  { city: '杭州', district: '滨江区', street: '江南大道', lng: 120.2109, lat: 30.2084 },
  { city: '杭州', district: '拱墅区', street: '湖墅南路', lng: 120.1588, lat: 30.2905 },
  { city: '杭州', district: '余杭区', street: '文一西路', lng: 120.0257, lat: 30.2834 },
];

export const CITY_AREA_CODE: Record<City, string> = { 北京: '010', 上海: '021', 杭州: '0571' };

export function landline(rng: Rng, city: City): string {
  return `${CITY_AREA_CODE[city]}-${rng.int(5, 8)}${rng.digits(7)}`;
}

const COMPOUNDS = [
  '阳光花园',
  '金色家园',
  '翠苑',
  '东方名苑',
  '和平里',
  '枫林小区',
  '景园',
  '星河湾',
  '绿城桂花园',
  '世纪新城',
  '锦绣华庭',
  '南湖小区',
];

/** A delivery address near a place: road, number, compound, building, room. */
export function homeAddress(rng: Rng, place: Place): string {
  return `${place.city}市${place.district}${place.street}${rng.int(1, 399)}号${rng.pick(COMPOUNDS)}${rng.int(1, 24)}幢${rng.int(1, 3)}单元${rng.int(1, 28)}0${rng.int(1, 4)}室`;
}

/** A point within roughly `meters` of a place. */
export function near(rng: Rng, lng: number, lat: number, meters: number): { lng: number; lat: number } {
  const dLat = (rng.float(-1, 1) * meters) / 111_000;
  const dLng = (rng.float(-1, 1) * meters) / (111_000 * Math.cos((lat * Math.PI) / 180));
  return { lng: Number((lng + dLng).toFixed(6)), lat: Number((lat + dLat).toFixed(6)) };
}

/** Metres between two points (equirectangular; fine within a city). */
export function distanceM(a: { lng: number; lat: number }, b: { lng: number; lat: number }): number {
  const x = ((b.lng - a.lng) * Math.PI * Math.cos(((a.lat + b.lat) * Math.PI) / 360)) / 180;
  const y = ((b.lat - a.lat) * Math.PI) / 180;
  return Math.round(Math.sqrt(x * x + y * y) * 6_371_000);
}

/** 居民身份证号 with a valid check digit (GB 11643); region codes of the three cities. */
export function idNumber(rng: Rng, birthYear: number): string {
  const region = rng.pick(['110105', '110108', '310104', '310115', '330106', '330108']);
  const month = String(rng.int(1, 12)).padStart(2, '0');
  const day = String(rng.int(1, 28)).padStart(2, '0');
  const body = `${region}${birthYear}${month}${day}${rng.digits(3)}`;
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = [...body].reduce((s, c, i) => s + Number(c) * (weights[i] as number), 0);
  return body + '10X98765432'[sum % 11];
}

/** 统一社会信用代码 with a valid check character (GB 32100). */
export function creditCode(rng: Rng): string {
  const alphabet = '0123456789ABCDEFGHJKLMNPQRTUWXY';
  const weights = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];
  const kind = rng.pick(['91', '92', '12']);
  const region = rng.pick(['110105', '310104', '330106', '330108']);
  let org = '';
  for (let i = 0; i < 9; i++) org += alphabet[rng.int(0, 30)];
  const body = kind + region + org;
  const sum = [...body].reduce((s, c, i) => s + alphabet.indexOf(c) * (weights[i] as number), 0);
  return body + alphabet[(31 - (sum % 31)) % 31];
}
