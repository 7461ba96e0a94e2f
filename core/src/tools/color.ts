/**
 * Colour arithmetic of the /color tool and the API market's palette API (one copy for both): parsing what a person types (HEX, rgb(), hsl()), the
 * three notations, antd's 10-shade palette, and WCAG 2.x relative luminance and contrast.
 * Pure functions; the screen only renders them.
 */
import { generate } from '@ant-design/colors';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

export interface Hsl {
  h: number;
  s: number;
  l: number;
}

const clampByte = (n: number) => Math.min(255, Math.max(0, Math.round(n)));

/** `#1677ff`, `1677ff`, `#17f`, `rgb(22, 119, 255)`, `hsl(215, 100%, 54%)` → RGB, else null. */
export function parseColor(input: string): Rgb | null {
  const text = input.trim().toLowerCase();
  const hex = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/.exec(text);
  if (hex) {
    let digits = hex[1] as string;
    if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
    return {
      r: Number.parseInt(digits.slice(0, 2), 16),
      g: Number.parseInt(digits.slice(2, 4), 16),
      b: Number.parseInt(digits.slice(4, 6), 16),
    };
  }
  const rgb =
    /^rgba?\(\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*[,\s]\s*(\d{1,3})\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(text);
  if (rgb) {
    const [r, g, b] = [rgb[1], rgb[2], rgb[3]].map(Number) as [number, number, number];
    if (r > 255 || g > 255 || b > 255) return null;
    return { r, g, b };
  }
  const hsl =
    /^hsla?\(\s*(-?[\d.]+)(?:deg)?\s*[,\s]\s*([\d.]+)%\s*[,\s]\s*([\d.]+)%\s*(?:[,/]\s*[\d.]+%?\s*)?\)$/.exec(
      text,
    );
  if (hsl) {
    const [h, s, l] = [hsl[1], hsl[2], hsl[3]].map(Number) as [number, number, number];
    if (s > 100 || l > 100) return null;
    return hslToRgb({ h, s, l });
  }
  return null;
}

export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((v) => clampByte(v).toString(16).padStart(2, '0')).join('')}`;
}

export function rgbToHsl({ r, g, b }: Rgb): Hsl {
  const [rn, gn, bn] = [r / 255, g / 255, b / 255];
  const max = Math.max(rn, gn, bn);
  const min = Math.min(rn, gn, bn);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return { h: 0, s: 0, l: Math.round(l * 100) };
  const s = d / (1 - Math.abs(2 * l - 1));
  let h: number;
  if (max === rn) h = ((gn - bn) / d) % 6;
  else if (max === gn) h = (bn - rn) / d + 2;
  else h = (rn - gn) / d + 4;
  h = Math.round(h * 60);
  if (h < 0) h += 360;
  return { h: h % 360, s: Math.round(s * 100), l: Math.round(l * 100) };
}

export function hslToRgb({ h, s, l }: Hsl): Rgb {
  const sn = s / 100;
  const ln = l / 100;
  const k = (n: number) => (n + (((h % 360) + 360) % 360) / 30) % 12;
  const a = sn * Math.min(ln, 1 - ln);
  const f = (n: number) => ln - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return { r: clampByte(f(0) * 255), g: clampByte(f(8) * 255), b: clampByte(f(4) * 255) };
}

export const rgbText = ({ r, g, b }: Rgb) => `rgb(${r}, ${g}, ${b})`;
export const hslText = (c: Rgb) => {
  const { h, s, l } = rgbToHsl(c);
  return `hsl(${h}, ${s}%, ${l}%)`;
};

/** The three notations of a colour, as shown and copied. */
export function notations(c: Rgb): { hex: string; rgb: string; hsl: string } {
  return { hex: toHex(c), rgb: rgbText(c), hsl: hslText(c) };
}

/** WCAG 2.x relative luminance (sRGB channels linearised). */
export function relativeLuminance({ r, g, b }: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2.x contrast ratio, 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

export interface WcagLevels {
  /** Normal text ≥ 4.5 : 1. */
  aa: boolean;
  /** Large text (≥ 18.66 px bold or 24 px) ≥ 3 : 1. */
  aaLarge: boolean;
  /** Normal text ≥ 7 : 1. */
  aaa: boolean;
  /** Large text ≥ 4.5 : 1. */
  aaaLarge: boolean;
}

export function wcagLevels(ratio: number): WcagLevels {
  return { aa: ratio >= 4.5, aaLarge: ratio >= 3, aaa: ratio >= 7, aaaLarge: ratio >= 4.5 };
}

/** Two decimals, never rounded up past a threshold (4.496 shows 4.49, not 4.50). */
export function ratioText(ratio: number): string {
  return (Math.floor(ratio * 100) / 100).toFixed(2);
}

export const WHITE: Rgb = { r: 255, g: 255, b: 255 };
export const BLACK: Rgb = { r: 0, g: 0, b: 0 };

/** antd's 10 shades (index 5 is the colour itself, 1–4 lighter, 6–9 darker), as HEX. */
export function palette(c: Rgb): string[] {
  return generate(toHex(c)).map((hex) => hex.toLowerCase());
}

/** Black or white, whichever reads better on `c` (for text on a swatch). */
export function readableOn(c: Rgb): '#000000' | '#ffffff' {
  return contrastRatio(c, BLACK) >= contrastRatio(c, WHITE) ? '#000000' : '#ffffff';
}
