/**
 * Images for the demo, drawn as SVG (gradients, geometric shapes, the title as text) and
 * encoded by sharp: photos (1200×800 JPEG with a 400×267 thumbnail), movie posters, covers,
 * logos, avatars, banners. Chinese titles need a CJK font on the machine (fontconfig: Noto Sans
 * CJK, WenQuanYi …); without one the shapes still render and the text shows as boxes.
 */
import type SharpModule from 'sharp';
import type { Rng } from './random.js';

let sharpLoading: Promise<typeof SharpModule> | null = null;

/** sharp on first use: libvips costs ~30 MB of resident memory once loaded, and a server with content never draws. */
function loadSharp(): Promise<typeof SharpModule> {
  sharpLoading ??= import('sharp').then((m) => m.default);
  return sharpLoading;
}

const FONT =
  "'Noto Sans CJK SC','Source Han Sans SC','WenQuanYi Micro Hei','PingFang SC','Microsoft YaHei',sans-serif";

/** Pairs of colours that make good gradients. */
export const PALETTES: readonly (readonly [string, string])[] = [
  ['#1e3c72', '#f6a04d'],
  ['#0f2027', '#2c7744'],
  ['#355c7d', '#f67280'],
  ['#134e5e', '#71b280'],
  ['#41295a', '#2f0743'],
  ['#ee9ca7', '#ffdde1'],
  ['#2193b0', '#6dd5ed'],
  ['#c94b4b', '#4b134f'],
  ['#283c86', '#45a247'],
  ['#ff5f6d', '#ffc371'],
  ['#3a1c71', '#ffaf7b'],
  ['#1d4350', '#a43931'],
  ['#004e92', '#000428'],
  ['#b79891', '#94716b'],
  ['#56ab2f', '#a8e063'],
  ['#e65c00', '#f9d423'],
];

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function gradient(
  id: string,
  [a, b]: readonly [string, string],
  angle: 'diag' | 'vertical' = 'diag',
): string {
  const end = angle === 'diag' ? 'x2="1" y2="1"' : 'x2="0" y2="1"';
  return `<linearGradient id="${id}" x1="0" y1="0" ${end}><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient>`;
}

/** A landscape-like composition: a sun, ridges, a band of waves or dots; differs per rng draw. */
function scenery(rng: Rng, w: number, h: number): string {
  const parts: string[] = [];
  const sunX = rng.float(0.15, 0.85) * w;
  const sunY = rng.float(0.15, 0.45) * h;
  parts.push(
    `<circle cx="${sunX.toFixed(0)}" cy="${sunY.toFixed(0)}" r="${(rng.float(0.08, 0.16) * w).toFixed(0)}" fill="#fff" fill-opacity="${rng.float(0.12, 0.3).toFixed(2)}"/>`,
  );
  const style = rng.int(0, 2);
  if (style === 0) {
    // Ridges, back to front.
    for (let layer = 0; layer < 3; layer++) {
      const base = h * (0.55 + layer * 0.12);
      let d = `M0 ${h} L0 ${base.toFixed(0)}`;
      const steps = rng.int(3, 6);
      for (let i = 1; i <= steps; i++) {
        const x = (w * i) / steps;
        const y = base - rng.float(0.05, 0.25) * h;
        d += ` L${(x - w / steps / 2).toFixed(0)} ${y.toFixed(0)} L${x.toFixed(0)} ${(base - rng.float(0, 0.06) * h).toFixed(0)}`;
      }
      d += ` L${w} ${h} Z`;
      parts.push(`<path d="${d}" fill="#0b1d33" fill-opacity="${(0.25 + layer * 0.2).toFixed(2)}"/>`);
    }
  } else if (style === 1) {
    // Waves.
    for (let layer = 0; layer < 4; layer++) {
      const y0 = h * (0.55 + layer * 0.1);
      const amp = rng.float(10, 30);
      const len = rng.float(w / 5, w / 2.5);
      let d = `M0 ${y0.toFixed(0)}`;
      for (let x = 0; x <= w + len; x += len) {
        d += ` q${(len / 4).toFixed(0)} ${(-amp).toFixed(0)} ${(len / 2).toFixed(0)} 0 t${(len / 2).toFixed(0)} 0`;
      }
      d += ` L${w} ${h} L0 ${h} Z`;
      parts.push(`<path d="${d}" fill="#ffffff" fill-opacity="${(0.08 + layer * 0.06).toFixed(2)}"/>`);
    }
  } else {
    // Rotated squares and a grid of dots.
    for (let i = 0; i < 6; i++) {
      const s = rng.float(0.08, 0.22) * w;
      const x = rng.float(0, w - s);
      const y = rng.float(0.3, 0.9) * h - s / 2;
      parts.push(
        `<rect x="${x.toFixed(0)}" y="${y.toFixed(0)}" width="${s.toFixed(0)}" height="${s.toFixed(0)}" transform="rotate(${rng.int(0, 90)} ${(x + s / 2).toFixed(0)} ${(y + s / 2).toFixed(0)})" fill="#fff" fill-opacity="${rng.float(0.06, 0.2).toFixed(2)}"/>`,
      );
    }
    const gap = Math.round(w / 24);
    for (let y = gap; y < h * 0.4; y += gap)
      for (let x = Math.round(w * 0.6); x < w; x += gap)
        parts.push(
          `<circle cx="${x}" cy="${y}" r="${(gap / 8).toFixed(1)}" fill="#fff" fill-opacity="0.25"/>`,
        );
  }
  return parts.join('');
}

async function toJpeg(svg: string, quality = 80): Promise<Buffer> {
  return (await loadSharp())(Buffer.from(svg)).jpeg({ quality, chromaSubsampling: '4:2:0' }).toBuffer();
}

async function toPng(svg: string): Promise<Buffer> {
  return (await loadSharp())(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
}

export interface PhotoImages {
  full: Buffer;
  thumbnail: Buffer;
}

/** A 1200×800 photo with its title, and the 400×267 thumbnail made from it. */
export async function photoImage(rng: Rng, title: string, caption: string): Promise<PhotoImages> {
  const w = 1200;
  const h = 800;
  const palette = rng.pick(PALETTES);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>${gradient('g', palette)}</defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${scenery(rng, w, h)}
<rect x="0" y="${h - 150}" width="${w}" height="150" fill="#000" fill-opacity="0.28"/>
<text x="64" y="${h - 72}" font-family="${FONT}" font-size="58" fill="#fff">${esc(title)}</text>
<text x="66" y="${h - 30}" font-family="${FONT}" font-size="26" fill="#fff" fill-opacity="0.8">${esc(caption)}</text></svg>`;
  const full = await toJpeg(svg, 80);
  const thumbnail = await (await loadSharp())(full)
    .resize(400, 267, { fit: 'cover' })
    .jpeg({ quality: 76 })
    .toBuffer();
  return { full, thumbnail };
}

/** A 600×900 movie poster: shapes, the title large, the original title and a tagline. */
export async function moviePoster(
  rng: Rng,
  title: string,
  original: string,
  tagline: string,
): Promise<Buffer> {
  const w = 600;
  const h = 900;
  const palette = rng.pick(PALETTES);
  const size = title.length > 6 ? 56 : 76;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>${gradient('g', palette, 'vertical')}</defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${scenery(rng, w, h)}
<rect x="0" y="0" width="${w}" height="${h}" fill="#000" fill-opacity="0.15"/>
<text x="${w / 2}" y="180" text-anchor="middle" font-family="${FONT}" font-size="${size}" font-weight="bold" fill="#fff" letter-spacing="6">${esc(title)}</text>
<text x="${w / 2}" y="230" text-anchor="middle" font-family="${FONT}" font-size="24" fill="#fff" fill-opacity="0.85" letter-spacing="3">${esc(original.toUpperCase())}</text>
<text x="${w / 2}" y="${h - 90}" text-anchor="middle" font-family="${FONT}" font-size="28" fill="#fff">${esc(tagline)}</text>
<text x="${w / 2}" y="${h - 45}" text-anchor="middle" font-family="${FONT}" font-size="18" fill="#fff" fill-opacity="0.7">万象影院 · 演示海报</text></svg>`;
  return toJpeg(svg, 78);
}

/** A square card with a large title and a line under it (goods, album covers, logos). */
export async function squareCard(
  rng: Rng,
  size: number,
  title: string,
  subtitle: string,
  format: 'jpg' | 'png' = 'jpg',
): Promise<Buffer> {
  const palette = rng.pick(PALETTES);
  const fontSize = Math.round((size * 0.7) / Math.max(2, title.length));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}"><defs>${gradient('g', palette)}</defs>
<rect width="${size}" height="${size}" rx="${format === 'png' ? Math.round(size / 8) : 0}" fill="url(#g)"/>${format === 'jpg' ? scenery(rng, size, size) : ''}
<text x="${size / 2}" y="${size / 2 + fontSize / 3}" text-anchor="middle" font-family="${FONT}" font-size="${Math.min(fontSize, size / 3)}" font-weight="bold" fill="#fff">${esc(title)}</text>
<text x="${size / 2}" y="${size * 0.82}" text-anchor="middle" font-family="${FONT}" font-size="${Math.round(size / 16)}" fill="#fff" fill-opacity="0.85">${esc(subtitle)}</text></svg>`;
  return format === 'png' ? toPng(svg) : toJpeg(svg, 78);
}

/** A round avatar with one character. */
export async function avatarImage(color: string, char: string, size = 128): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">
<circle cx="${size / 2}" cy="${size / 2}" r="${size / 2}" fill="${color}"/>
<text x="${size / 2}" y="${size / 2 + size * 0.15}" text-anchor="middle" font-family="${FONT}" font-size="${Math.round(size * 0.44)}" fill="#fff">${esc(char)}</text></svg>`;
  return toPng(svg);
}

/** A wide banner (mini-program carousel, 750×300). */
export async function bannerImage(
  rng: Rng,
  title: string,
  subtitle: string,
  w = 750,
  h = 300,
): Promise<Buffer> {
  const palette = rng.pick(PALETTES);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>${gradient('g', palette)}</defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${scenery(rng, w, h)}
<text x="48" y="${h * 0.45}" font-family="${FONT}" font-size="${Math.round(h / 6.5)}" font-weight="bold" fill="#fff">${esc(title)}</text>
<text x="50" y="${h * 0.68}" font-family="${FONT}" font-size="${Math.round(h / 12)}" fill="#fff" fill-opacity="0.9">${esc(subtitle)}</text></svg>`;
  return toJpeg(svg, 80);
}

/** A specimen business licence (clearly marked as a sample) for merchant applications. */
export async function licenceImage(): Promise<Buffer> {
  const w = 900;
  const h = 640;
  const line = (y: number, label: string, value: string) =>
    `<text x="120" y="${y}" font-family="${FONT}" font-size="22" fill="#333">${esc(label)}</text><text x="300" y="${y}" font-family="${FONT}" font-size="22" fill="#333">${esc(value)}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
<rect width="${w}" height="${h}" fill="#fbf7ee"/>
<rect x="24" y="24" width="${w - 48}" height="${h - 48}" fill="none" stroke="#b8860b" stroke-width="6"/>
<rect x="36" y="36" width="${w - 72}" height="${h - 72}" fill="none" stroke="#b8860b" stroke-width="2"/>
<text x="${w / 2}" y="130" text-anchor="middle" font-family="${FONT}" font-size="54" fill="#8b0000" letter-spacing="12">营业执照</text>
<text x="${w / 2}" y="172" text-anchor="middle" font-family="${FONT}" font-size="20" fill="#8b0000">（副　本）</text>
${line(240, '名　　称', '演示样例有限公司')}${line(290, '类　　型', '有限责任公司')}${line(340, '法定代表人', '张三')}${line(390, '经营范围', '餐饮服务；食品销售')}${line(440, '成立日期', '2020年01月01日')}
<text x="${w / 2}" y="${h / 2 + 40}" text-anchor="middle" font-family="${FONT}" font-size="120" fill="#c00" fill-opacity="0.12" transform="rotate(-20 ${w / 2} ${h / 2})">样 例</text>
<circle cx="${w - 190}" cy="${h - 150}" r="70" fill="none" stroke="#c00" stroke-width="5" stroke-opacity="0.7"/>
<text x="${w - 190}" y="${h - 142}" text-anchor="middle" font-family="${FONT}" font-size="22" fill="#c00" fill-opacity="0.7">登记机关</text></svg>`;
  return toJpeg(svg, 75);
}

/** A page-like screenshot for a browser monitoring job (1280×800). */
export async function screenshotImage(rng: Rng, title: string, url: string): Promise<Buffer> {
  const w = 1280;
  const h = 800;
  const palette = rng.pick(PALETTES);
  const cards = [0, 1, 2]
    .map(
      (i) =>
        `<rect x="${80 + i * 380}" y="430" width="340" height="220" rx="10" fill="#fff" stroke="#e5e5e5"/><rect x="${100 + i * 380}" y="450" width="300" height="120" rx="6" fill="${palette[i % 2]}" fill-opacity="0.5"/><rect x="${100 + i * 380}" y="590" width="220" height="16" rx="4" fill="#ddd"/><rect x="${100 + i * 380}" y="616" width="160" height="12" rx="4" fill="#eee"/>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>${gradient('g', palette)}</defs>
<rect width="${w}" height="${h}" fill="#f5f5f5"/>
<rect width="${w}" height="44" fill="#dedede"/><rect x="90" y="9" width="${w - 180}" height="26" rx="13" fill="#fff"/>
<text x="110" y="28" font-family="${FONT}" font-size="15" fill="#555">${esc(url)}</text>
<rect y="44" width="${w}" height="340" fill="url(#g)"/>${scenery(rng, w, 384)}
<text x="80" y="220" font-family="${FONT}" font-size="54" font-weight="bold" fill="#fff">${esc(title)}</text>${cards}</svg>`;
  return toJpeg(svg, 70);
}

/** A vertical promotion poster background (750×1334). */
export async function posterBackground(rng: Rng, title: string): Promise<Buffer> {
  const w = 750;
  const h = 1334;
  const palette = rng.pick(PALETTES);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs>${gradient('g', palette, 'vertical')}</defs>
<rect width="${w}" height="${h}" fill="url(#g)"/>${scenery(rng, w, h)}
<text x="${w / 2}" y="260" text-anchor="middle" font-family="${FONT}" font-size="72" font-weight="bold" fill="#fff">${esc(title)}</text>
<rect x="${w / 2 - 150}" y="${h - 460}" width="300" height="300" rx="16" fill="#fff" fill-opacity="0.9"/>
<text x="${w / 2}" y="${h - 300}" text-anchor="middle" font-family="${FONT}" font-size="26" fill="#999">二维码区域</text></svg>`;
  return toJpeg(svg, 78);
}
