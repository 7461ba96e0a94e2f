/**
 * One value as a list cell or a detail line: enums as coloured tags with their Chinese labels,
 * relations by name, money as ¥ with two decimals, dates `YYYY-MM-DD HH:mm` (China time, core's
 * formatter), booleans 是/否, images as small thumbnails.
 */
import { type EnumOption, type FieldDef, formatDateTime, formatMoney, type Relations } from '@wanxiang/core';
import type { ReactNode } from 'react';
import { ValueTag } from './ValueTag';

const EMPTY = <span className="wx-cell-empty">-</span>;

function optionTag(options: readonly EnumOption[], value: unknown): ReactNode {
  const option = options.find((o) => o.value === value);
  return (
    <ValueTag key={String(value)} color={option?.color}>
      {option?.label ?? String(value)}
    </ValueTag>
  );
}

function relationName(relations: Relations, name: string, id: unknown): string {
  return relations[name]?.[String(id)] ?? `#${String(id)}`;
}

/** Only web and same-site links: a stored `javascript:` URL stays text. */
function safeHref(value: unknown): string | undefined {
  const text = String(value);
  return /^(https?:\/\/|\/(?!\/))/i.test(text) ? text : undefined;
}

function compactJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

export interface FieldValueProps {
  name: string;
  field: FieldDef;
  value: unknown;
  relations: Relations;
  /** The detail view: long text in full, JSON pretty-printed, larger images. */
  full?: boolean;
}

export function FieldValue({ name, field, value, relations, full = false }: FieldValueProps): ReactNode {
  if (value === null || value === undefined || value === '') return EMPTY;
  switch (field.type) {
    case 'enum':
      return optionTag(field.options, value);
    case 'enumList':
      return Array.isArray(value) && value.length > 0 ? value.map((v) => optionTag(field.options, v)) : EMPTY;
    case 'relation':
      return relationName(relations, name, value);
    case 'relationList':
      return Array.isArray(value) && value.length > 0
        ? value.map((id) => relationName(relations, name, id)).join('、')
        : EMPTY;
    case 'money':
      return <span className="wx-cell-money">{formatMoney(value as number)}</span>;
    case 'datetime':
      return formatDateTime(value as string);
    case 'date':
      return String(value);
    case 'boolean':
      return value ? '是' : '否';
    case 'integer':
    case 'number':
      return field.unit ? `${String(value)} ${field.unit}` : String(value);
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
      if (!Array.isArray(value) || value.length === 0) return EMPTY;
      const shown = full ? value : value.slice(0, 3);
      return (
        <>
          {shown.map((v) => (
            <ValueTag key={String(v)}>{String(v)}</ValueTag>
          ))}
          {shown.length < value.length && (
            <span className="wx-cell-more">+{value.length - shown.length}</span>
          )}
        </>
      );
    }
    case 'json':
      return full ? (
        <pre className="wx-cell-json">{JSON.stringify(value, null, 2)}</pre>
      ) : (
        <span className="wx-cell-ellipsis" title={JSON.stringify(value)}>
          {compactJson(value)}
        </span>
      );
    case 'password':
      return EMPTY;
    case 'string':
      if (field.format === 'url')
        return (
          <a href={safeHref(value)} target="_blank" rel="noreferrer" className="wx-cell-ellipsis">
            {String(value)}
          </a>
        );
      return full ? (
        String(value)
      ) : (
        <span className="wx-cell-ellipsis" title={String(value)}>
          {String(value)}
        </span>
      );
    default:
      return full ? (
        <span className="wx-cell-text">{String(value)}</span>
      ) : (
        <span className="wx-cell-ellipsis" title={String(value)}>
          {String(value)}
        </span>
      );
  }
}
