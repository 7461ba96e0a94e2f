/**
 * /color: pick or type a colour, see antd's 10-shade palette, its HEX/RGB/HSL and its WCAG
 * contrast against white and black; hovering or focusing a shade shows the same for it, and any
 * value or shade copies with a click. The colour lives in the URL (`?c=1677ff`), so a link shares it.
 */
import { CheckCircleFilled, CloseCircleFilled, CopyOutlined } from '@ant-design/icons';
import {
  BLACK,
  contrastRatio,
  notations,
  palette,
  parseColor,
  type Rgb,
  ratioText,
  readableOn,
  WHITE,
  wcagLevels,
} from '@wanxiang/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { useCopy } from './copy';
import './tools.css';

const DEFAULT = '#1677ff';
const PRESETS = ['#1677ff', '#f5222d', '#fa8c16', '#fadb14', '#52c41a', '#13c2c2', '#722ed1', '#eb2f96'];

function Badge({ pass, label }: { pass: boolean; label: string }) {
  return (
    <span className={pass ? 'wx-badge wx-badge-pass' : 'wx-badge wx-badge-fail'}>
      {pass ? <CheckCircleFilled aria-hidden /> : <CloseCircleFilled aria-hidden />}
      {label}
      <span className="wx-visually-hidden">{pass ? '通过' : '未通过'}</span>
    </span>
  );
}

function ContrastCard({ color, against, name }: { color: Rgb; against: Rgb; name: string }) {
  const ratio = contrastRatio(color, against);
  const levels = wcagLevels(ratio);
  const hex = notations(color).hex;
  const bg = notations(against).hex;
  return (
    <div className="wx-contrast-card" data-testid={`contrast-${name === '白色' ? 'white' : 'black'}`}>
      <div className="wx-contrast-sample" style={{ background: bg, color: hex }}>
        <span className="wx-contrast-big">万象 Aa</span>
        <span className="wx-contrast-small">在{name}背景上的正文文字</span>
      </div>
      <div className="wx-contrast-body">
        <div className="wx-contrast-ratio">
          <span>对比{name}</span>
          <strong data-testid="ratio">{ratioText(ratio)} : 1</strong>
        </div>
        <div className="wx-badges">
          <Badge pass={levels.aa} label="AA 正文" />
          <Badge pass={levels.aaLarge} label="AA 大字" />
          <Badge pass={levels.aaa} label="AAA 正文" />
          <Badge pass={levels.aaaLarge} label="AAA 大字" />
        </div>
      </div>
    </div>
  );
}

export default function ColorTool() {
  const [params, setParams] = useSearchParams();
  const fromUrl = parseColor(params.get('c') ?? '');
  const base = fromUrl ?? (parseColor(DEFAULT) as Rgb);
  const [text, setText] = useState(() => notations(base).hex);
  const [invalid, setInvalid] = useState(false);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  const { copy, holder } = useCopy();

  const shades = palette(base);
  const focused = focusIndex === null ? base : (parseColor(shades[focusIndex] as string) as Rgb);
  const values = notations(focused);

  const choose = (rgb: Rgb) => {
    const hex = notations(rgb).hex;
    setText(hex);
    setInvalid(false);
    setFocusIndex(null);
    setParams({ c: hex.slice(1) }, { replace: true });
  };

  const onType = (value: string) => {
    setText(value);
    const rgb = parseColor(value);
    setInvalid(rgb === null && value.trim() !== '');
    if (rgb) {
      setFocusIndex(null);
      setParams({ c: notations(rgb).hex.slice(1) }, { replace: true });
    }
  };

  return (
    <section className="wx-public-screen wx-tool">
      {holder}
      <header className="wx-tool-head">
        <h1 className="wx-public-screen-title">配色工具</h1>
        <p className="wx-tool-lead">
          输入或选取一个颜色，生成 10 级色板，查看 HEX / RGB / HSL 与 WCAG
          对比度，点击任意数值或色块即可复制。
        </p>
      </header>

      <div className="wx-card wx-color-input">
        <label className="wx-color-picker" title="打开取色器">
          <input
            type="color"
            aria-label="取色器"
            value={notations(base).hex}
            onChange={(e) => choose(parseColor(e.target.value) as Rgb)}
          />
        </label>
        <div className="wx-color-field">
          <label htmlFor="wx-color-text" className="wx-field-label">
            颜色值
          </label>
          <input
            id="wx-color-text"
            className={invalid ? 'wx-input wx-input-error' : 'wx-input'}
            value={text}
            spellCheck={false}
            autoComplete="off"
            placeholder="#1677ff、rgb(22, 119, 255) 或 hsl(215, 100%, 54%)"
            aria-invalid={invalid}
            aria-describedby="wx-color-hint"
            onChange={(e) => onType(e.target.value)}
          />
          <p
            id="wx-color-hint"
            className={invalid ? 'wx-tool-field-error' : 'wx-field-hint'}
            role={invalid ? 'alert' : undefined}
          >
            {invalid
              ? '无法识别这个颜色，请输入 #RGB、#RRGGBB、rgb() 或 hsl()'
              : '支持 HEX、rgb()、hsl() 三种写法'}
          </p>
        </div>
        <fieldset className="wx-presets">
          <legend className="wx-visually-hidden">常用颜色</legend>
          {PRESETS.map((hex) => (
            <button
              key={hex}
              type="button"
              className="wx-preset"
              style={{ background: hex }}
              aria-label={`选用 ${hex}`}
              onClick={() => choose(parseColor(hex) as Rgb)}
            />
          ))}
        </fieldset>
      </div>

      <div className="wx-card">
        <h2 className="wx-card-title">10 级色板</h2>
        <ol className="wx-palette" aria-label="色板，点击复制 HEX">
          {shades.map((hex, i) => {
            const rgb = parseColor(hex) as Rgb;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a shade is its position in the palette
              <li key={i}>
                <button
                  type="button"
                  className={`wx-shade${i === 5 ? ' wx-shade-base' : ''}${focusIndex === i ? ' wx-shade-active' : ''}`}
                  style={{ background: hex, color: readableOn(rgb) }}
                  aria-label={`第 ${i + 1} 级 ${hex}，点击复制`}
                  data-testid="shade"
                  onMouseEnter={() => setFocusIndex(i)}
                  onFocus={() => setFocusIndex(i)}
                  onClick={() => {
                    setFocusIndex(i);
                    void copy(hex, 'HEX');
                  }}
                >
                  <span className="wx-shade-index">{i + 1}</span>
                  <span className="wx-shade-hex">{hex}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </div>

      <div className="wx-color-grid">
        <div className="wx-card">
          <h2 className="wx-card-title">
            {focusIndex === null ? '当前颜色' : `第 ${focusIndex + 1} 级色`}
            {focusIndex !== null && (
              <button type="button" className="wx-tool-link-button" onClick={() => setFocusIndex(null)}>
                回到当前颜色
              </button>
            )}
          </h2>
          <div className="wx-current">
            <div className="wx-current-swatch" style={{ background: values.hex }} aria-hidden />
            <dl className="wx-values">
              {(
                [
                  ['HEX', values.hex],
                  ['RGB', values.rgb],
                  ['HSL', values.hsl],
                ] as const
              ).map(([name, value]) => (
                <div key={name} className="wx-value-row">
                  <dt>{name}</dt>
                  <dd>
                    <button
                      type="button"
                      className="wx-copy-value"
                      data-testid={`value-${name.toLowerCase()}`}
                      aria-label={`复制 ${name} ${value}`}
                      onClick={() => void copy(value, name)}
                    >
                      <code>{value}</code>
                      <CopyOutlined aria-hidden />
                    </button>
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
        <div className="wx-card">
          <h2 className="wx-card-title">WCAG 2.x 对比度</h2>
          <div className="wx-contrast">
            <ContrastCard color={focused} against={WHITE} name="白色" />
            <ContrastCard color={focused} against={BLACK} name="黑色" />
          </div>
          <p className="wx-field-hint">
            AA 要求正文 ≥ 4.5 : 1、大字 ≥ 3 : 1；AAA 要求正文 ≥ 7 : 1、大字 ≥ 4.5 : 1。
          </p>
        </div>
      </div>
    </section>
  );
}
