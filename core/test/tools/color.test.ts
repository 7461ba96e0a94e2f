import { describe, expect, it } from 'vitest';
import {
  BLACK,
  contrastRatio,
  hslToRgb,
  notations,
  palette,
  parseColor,
  ratioText,
  readableOn,
  relativeLuminance,
  rgbToHsl,
  toHex,
  WHITE,
  wcagLevels,
} from '../../src/index';

describe('colour notations', () => {
  it('reads #1677ff in every notation people type', () => {
    const blue = { r: 22, g: 119, b: 255 };
    for (const text of [
      '#1677ff',
      '1677FF',
      ' #1677Ff ',
      'rgb(22, 119, 255)',
      'rgb(22 119 255)',
      'rgba(22,119,255,0.5)',
    ])
      expect(parseColor(text), text).toEqual(blue);
    expect(parseColor('#17f')).toEqual({ r: 0x11, g: 0x77, b: 0xff });
    expect(parseColor('hsl(215, 100%, 54%)')).toEqual({ r: 20, g: 118, b: 255 });
  });

  it('refuses what is not a colour', () => {
    for (const text of ['', '#12', '#12345g', 'rgb(256, 0, 0)', 'hsl(0, 120%, 50%)', 'blue-ish'])
      expect(parseColor(text), text).toBeNull();
  });

  it('gives HEX, RGB and HSL of #1677ff', () => {
    expect(notations({ r: 22, g: 119, b: 255 })).toEqual({
      hex: '#1677ff',
      rgb: 'rgb(22, 119, 255)',
      hsl: 'hsl(215, 100%, 54%)',
    });
  });

  it('converts known HSL values both ways', () => {
    expect(rgbToHsl({ r: 255, g: 0, b: 0 })).toEqual({ h: 0, s: 100, l: 50 });
    expect(rgbToHsl({ r: 0, g: 128, b: 0 })).toEqual({ h: 120, s: 100, l: 25 });
    expect(rgbToHsl({ r: 128, g: 128, b: 128 })).toEqual({ h: 0, s: 0, l: 50 });
    expect(hslToRgb({ h: 240, s: 100, l: 50 })).toEqual({ r: 0, g: 0, b: 255 });
    expect(hslToRgb({ h: 60, s: 100, l: 50 })).toEqual({ r: 255, g: 255, b: 0 });
    expect(toHex(hslToRgb({ h: 0, s: 0, l: 100 }))).toBe('#ffffff');
  });
});

describe('WCAG 2.x contrast', () => {
  it('black on white is 21 : 1 and a colour on itself 1 : 1', () => {
    expect(relativeLuminance(WHITE)).toBe(1);
    expect(relativeLuminance(BLACK)).toBe(0);
    expect(contrastRatio(BLACK, WHITE)).toBe(21);
    expect(contrastRatio(WHITE, BLACK)).toBe(21);
    expect(contrastRatio({ r: 22, g: 119, b: 255 }, { r: 22, g: 119, b: 255 })).toBe(1);
  });

  it('matches published figures', () => {
    const blue = { r: 22, g: 119, b: 255 };
    // #1677ff on white: 4.10 (fails AA for normal text, passes for large text).
    expect(ratioText(contrastRatio(blue, WHITE))).toBe('4.10');
    expect(ratioText(contrastRatio(blue, BLACK))).toBe('5.11');
    // #767676 on white is the classic 4.54 : 1, the lightest grey that passes AA.
    expect(ratioText(contrastRatio({ r: 0x76, g: 0x76, b: 0x76 }, WHITE))).toBe('4.54');
    expect(ratioText(contrastRatio({ r: 0x77, g: 0x77, b: 0x77 }, WHITE))).toBe('4.47');
  });

  it('grades AA and AAA at 4.5, 3 and 7', () => {
    expect(wcagLevels(4.1)).toEqual({ aa: false, aaLarge: true, aaa: false, aaaLarge: false });
    expect(wcagLevels(4.5)).toEqual({ aa: true, aaLarge: true, aaa: false, aaaLarge: true });
    expect(wcagLevels(7)).toEqual({ aa: true, aaLarge: true, aaa: true, aaaLarge: true });
    expect(wcagLevels(2.9)).toEqual({ aa: false, aaLarge: false, aaa: false, aaaLarge: false });
    expect(ratioText(4.499)).toBe('4.49');
  });

  it('picks readable text for a swatch', () => {
    expect(readableOn({ r: 0, g: 29, b: 102 })).toBe('#ffffff');
    expect(readableOn({ r: 230, g: 244, b: 255 })).toBe('#000000');
  });
});

describe('palette', () => {
  it("is antd's blue for #1677ff, the colour itself at index 5", () => {
    expect(palette({ r: 22, g: 119, b: 255 })).toEqual([
      '#e6f4ff',
      '#bae0ff',
      '#91caff',
      '#69b1ff',
      '#4096ff',
      '#1677ff',
      '#0958d9',
      '#003eb3',
      '#002c8c',
      '#001d66',
    ]);
  });
});
