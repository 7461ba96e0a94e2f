/**
 * One value as a list cell or a detail line. The text is core's `fieldText` — the one rule the
 * CLI's tables and the CSV export follow too (enum labels, 是/否, ¥ with two decimals, China time,
 * related rows by name, lists joined with 、) — and this only puts the screen's things around it:
 * enums and list items as coloured tags, links, image thumbnails, an ellipsis with the whole text
 * on hover.
 */
import {
  type EnumOption,
  enumLabel,
  type FieldDef,
  fieldText,
  isEmptyValue,
  listItemTexts,
  type Relations,
} from '@wanxiang/core';
import type { ReactNode } from 'react';
import { ValueTag } from './ValueTag';

const EMPTY = <span className="wx-cell-empty">-</span>;

function optionTag(field: FieldDef, value: unknown): ReactNode {
  const options: readonly EnumOption[] =
    field.type === 'enum' || field.type === 'enumList' ? field.options : [];
  return (
    <ValueTag key={String(value)} color={options.find((o) => o.value === value)?.color}>
      {enumLabel(field, value)}
    </ValueTag>
  );
}

/** Only web and same-site links: a stored `javascript:` URL stays text. */
function safeHref(value: unknown): string | undefined {
  const text = String(value);
  return /^(https?:\/\/|\/(?!\/))/i.test(text) ? text : undefined;
}

/** A list cell's JSON is cut; the whole of it is the cell's title. */
const JSON_CELL_MAX = 120;

export interface FieldValueProps {
  name: string;
  field: FieldDef;
  value: unknown;
  relations: Relations;
  /** The detail view: long text in full, JSON pretty-printed, larger images. */
  full?: boolean;
}

export function FieldValue({ name, field, value, relations, full = false }: FieldValueProps): ReactNode {
  if (isEmptyValue(field, value)) return EMPTY;
  const text = () => fieldText(field, value, { relations: relations[name], multiline: full });
  switch (field.type) {
    case 'enum':
      return optionTag(field, value);
    case 'enumList':
      return (value as unknown[]).map((v) => optionTag(field, v));
    case 'money':
      return <span className="wx-cell-money">{text()}</span>;
    case 'image':
      if (!safeHref(value)) return EMPTY;
      // A thumbnail that opens the full image: no viewer library for a glance.
      return (
        <a href={safeHref(value)} target="_blank" rel="noreferrer" className="wx-cell-image-link">
          <img
            src={safeHref(value)}
            alt={field.label}
            loading="lazy"
            className={full ? 'wx-cell-image wx-cell-image-large' : 'wx-cell-image'}
          />
        </a>
      );
    case 'file':
      return (
        <a href={safeHref(value)} target="_blank" rel="noreferrer">
          查看文件
        </a>
      );
    case 'stringList': {
      const items = listItemTexts(field, value);
      const shown = full ? items : items.slice(0, 3);
      return (
        <>
          {shown.map((item) => (
            <ValueTag key={item}>{item}</ValueTag>
          ))}
          {shown.length < items.length && (
            <span className="wx-cell-more">+{items.length - shown.length}</span>
          )}
        </>
      );
    }
    case 'json': {
      if (full) return <pre className="wx-cell-json">{text()}</pre>;
      const whole = text();
      return (
        <span className="wx-cell-ellipsis" title={whole}>
          {whole.length > JSON_CELL_MAX ? `${whole.slice(0, JSON_CELL_MAX)}…` : whole}
        </span>
      );
    }
    case 'string':
      if (field.format === 'url')
        return (
          <a href={safeHref(value)} target="_blank" rel="noreferrer" className="wx-cell-ellipsis">
            {text()}
          </a>
        );
      return full ? (
        text()
      ) : (
        <span className="wx-cell-ellipsis" title={text()}>
          {text()}
        </span>
      );
    case 'text':
    case 'markdown':
      return full ? (
        <span className="wx-cell-text">{text()}</span>
      ) : (
        <span className="wx-cell-ellipsis" title={text()}>
          {text()}
        </span>
      );
    default:
      // Relations by name, times, amounts' siblings (integers with their unit), 是/否, dates, secrets.
      return text();
  }
}
