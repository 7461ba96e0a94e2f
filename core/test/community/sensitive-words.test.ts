/** The sensitive-word filter: variants caught, canonical words and original positions answered. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightSegments, normalise, parseWordLines, SensitiveWordFilter } from '../../src/index';

const filter = new SensitiveWordFilter([
  { word: '加微信', category: 'ad' },
  { word: '赌博', category: 'gambling' },
  { word: '赌博网', category: 'gambling' },
  { word: 'WX', category: 'ad' },
]);

const found = (text: string) =>
  filter.find(text).map((h) => ({ word: h.word, at: text.slice(h.start, h.end) }));

describe('normalise', () => {
  it('folds full-width letters and digits, and case', () => {
    expect(normalise('ＷＸ１２３ＡｂC')).toBe('wx123abc');
  });
  it('drops spaces, punctuation, symbols and zero-width characters', () => {
    expect(normalise('加 微\u3000信')).toBe('加微信');
    expect(normalise('加-微_信。！')).toBe('加微信');
    expect(normalise('加\u200b微\u200d信\ufeff')).toBe('加微信');
    expect(normalise('加😀微★信')).toBe('加微信');
  });
  it('keeps CJK and other letters as they are', () => {
    expect(normalise('賭博 ÄÖ')).toBe('賭博ÄÖ');
  });
});

describe('SensitiveWordFilter', () => {
  it('finds a word as listed, with its position and category', () => {
    expect(filter.find('你好，加微信聊')).toEqual([{ word: '加微信', category: 'ad', start: 3, end: 6 }]);
  });
  it('catches spaces, punctuation and zero-width characters between the characters', () => {
    expect(found('快 加 微 信 吧')).toEqual([{ word: '加微信', at: '加 微 信' }]);
    expect(found('加-微-信')).toEqual([{ word: '加微信', at: '加-微-信' }]);
    expect(found('加\u200b微\u200b信')).toEqual([{ word: '加微信', at: '加\u200b微\u200b信' }]);
  });
  it('catches full-width and mixed-case Latin words, answering the listed form', () => {
    expect(found('私聊ＷＸ')).toEqual([{ word: 'WX', at: 'ＷＸ' }]);
    expect(found('私聊 w x')).toEqual([{ word: 'WX', at: 'w x' }]);
  });
  it('answers overlapping words, and each distinct word once from words()', () => {
    const text = '赌博网 和 赌博';
    expect(found(text)).toEqual([
      { word: '赌博网', at: '赌博网' },
      { word: '赌博', at: '赌博' },
      { word: '赌博', at: '赌博' },
    ]);
    expect(filter.words(text)).toEqual(['赌博网', '赌博']);
  });
  it('positions count UTF-16 units around astral characters', () => {
    const text = '😀😀加𠀀微信';
    // 𠀀 is a letter (not dropped), so 加𠀀微信 is no hit; 😀 (a symbol) between is dropped.
    expect(filter.find(text)).toEqual([]);
    const t2 = '😀加😀微信';
    expect(found(t2)).toEqual([{ word: '加微信', at: '加😀微信' }]);
  });
  it('finds nothing in clean text, with an empty list, or for punctuation-only words', () => {
    expect(filter.find('今天天气不错')).toEqual([]);
    expect(new SensitiveWordFilter([]).find('加微信')).toEqual([]);
    const p = new SensitiveWordFilter(['。。', ' ', '赌博']);
    expect(p.size).toBe(1);
    expect(p.words('。。赌博')).toEqual(['赌博']);
  });
  it('property: a listed word with any separators between its characters is found there', () => {
    const words = ['加微信', '赌博', '代开发票', 'qq群'];
    const f = new SensitiveWordFilter(words);
    const sep = fc.constantFrom(' ', '-', '.', '，', '\u200b', '　', '*', '');
    fc.assert(
      fc.property(
        fc.constantFrom(...words),
        fc.array(sep, { minLength: 5, maxLength: 5 }),
        fc.string({ maxLength: 20 }),
        fc.string({ maxLength: 20 }),
        (word, seps, before, after) => {
          const chars = [...word];
          const disguised = chars.map((c, i) => (i === 0 ? c : (seps[i] ?? '') + c)).join('');
          const text = `${before}${disguised}${after}`;
          const hits = f.find(text);
          const hit = hits.find((h) => h.word === word && h.start === before.length);
          // The hit may start earlier only if `before` ends in part of the word (a longer match).
          return hits.some((h) => h.word === word) && (hit !== undefined || normalise(before) !== '');
        },
      ),
    );
  });
  it('property: a hit always spans text whose normalised form is the word', () => {
    const words = ['加微信', '赌博', 'wx'];
    const f = new SensitiveWordFilter(words);
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('加', '微', '信', '赌', '博', 'W', 'ｘ', ' ', '。', 'a'), { maxLength: 40 }),
        (parts) => {
          const text = parts.join('');
          return f.find(text).every((h) => normalise(text.slice(h.start, h.end)) === normalise(h.word));
        },
      ),
    );
  });
});

describe('highlightSegments', () => {
  it('cuts the text into plain and flagged parts, overlaps merged', () => {
    const text = '来赌博网玩，加 微 信';
    expect(highlightSegments(text, filter.find(text))).toEqual([
      { text: '来', words: [] },
      { text: '赌博网', words: ['赌博网', '赌博'] },
      { text: '玩，', words: [] },
      { text: '加 微 信', words: ['加微信'] },
    ]);
  });
  it('no hits: the text as one plain segment', () => {
    expect(highlightSegments('你好', [])).toEqual([{ text: '你好', words: [] }]);
  });
});

describe('parseWordLines', () => {
  it('one word a line, trimmed, blanks and repeats (by normalised form) dropped', () => {
    expect(parseWordLines(' 加微信 \r\n\n赌博\n加 微 信\nＷＸ\nwx\n。\n')).toEqual([
      '加微信',
      '赌博',
      'ＷＸ',
    ]);
  });
});
