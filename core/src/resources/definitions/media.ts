/** Music and movies (DOMAIN.md "content"): tracks played and movies watched on the public site. */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { VISIBILITY } from './common';

export const tracks = defineResource({
  name: 'tracks',
  title: '音乐',
  route: 'music/music',
  area: 'music',
  displayField: 'title',
  softDelete: true,
  fields: {
    title: f.string('歌名', { required: true, max: 100, searchable: true, sortable: true }),
    artist: f.string('歌手', { required: true, max: 100, searchable: true, filterable: true }),
    album: f.string('专辑', { max: 100, searchable: true, filterable: true }),
    cover: f.image('封面', { hideInList: true }),
    audio: f.file('音频文件', { required: true, accept: 'audio/*', hideInList: true }),
    durationS: f.integer('时长（秒）', { min: 1, max: 36_000, sortable: true }),
    lyrics: f.text('歌词', { max: 20_000, help: 'LRC 格式可随播放滚动' }),
    status: f.enum('状态', VISIBILITY, { default: 'published' }),
  },
});

export const MOVIE_GENRES = options(
  ['drama', '剧情'],
  ['comedy', '喜剧'],
  ['action', '动作'],
  ['romance', '爱情'],
  ['scifi', '科幻'],
  ['animation', '动画'],
  ['mystery', '悬疑'],
  ['thriller', '惊悚'],
  ['horror', '恐怖'],
  ['crime', '犯罪'],
  ['war', '战争'],
  ['history', '历史'],
  ['fantasy', '奇幻'],
  ['adventure', '冒险'],
  ['family', '家庭'],
  ['biography', '传记'],
  ['music', '音乐'],
  ['documentary', '纪录片'],
);

export const MOVIE_REGIONS = options(
  ['cn', '中国大陆'],
  ['hk', '中国香港'],
  ['tw', '中国台湾'],
  ['us', '美国'],
  ['jp', '日本'],
  ['kr', '韩国'],
  ['gb', '英国'],
  ['fr', '法国'],
  ['in', '印度'],
  ['other', '其他'],
);

export const movies = defineResource({
  name: 'movies',
  title: '电影',
  route: 'movie',
  area: 'movie',
  displayField: 'title',
  softDelete: true,
  defaultSort: '-year',
  fields: {
    title: f.string('片名', { required: true, max: 100, searchable: true, sortable: true }),
    originalTitle: f.string('原名', { max: 100, searchable: true, hideInList: true }),
    year: f.integer('年份', { required: true, min: 1888, max: 2100, sortable: true, filterable: true }),
    director: f.string('导演', { max: 100, searchable: true }),
    cast: f.stringList('主演', { max: 20, itemMax: 50, searchable: true, hideInList: true }),
    genres: f.enumList('类型', MOVIE_GENRES, { min: 1, max: 5, filterable: true }),
    region: f.enum('地区', MOVIE_REGIONS),
    rating: f.number('评分', { min: 0, max: 10, sortable: true, filterable: true }),
    poster: f.image('海报'),
    synopsis: f.text('剧情简介', { max: 2000 }),
    video: f.file('视频文件', { accept: 'video/*', hideInList: true }),
    videoUrl: f.url('视频地址', { hideInList: true, help: '没有上传视频文件时使用' }),
    status: f.enum('状态', VISIBILITY, { default: 'published' }),
  },
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [tracks, movies];
