/**
 * Between a field's wire value (API.md: money in fen, ISO date-times, JSON) and what an antd form
 * control holds (yuan, dayjs, JSON text). The validation always runs on the wire value, with core's
 * zod schema, so the form says exactly what the server would.
 */
import {
  type FieldDef,
  fenToYuan,
  fieldSchema,
  format,
  formMessages,
  type ValidationMode,
  yuanToFen,
} from '@wanxiang/core';
import type { Dayjs } from 'dayjs';
import { dayjs } from '../app/dayjs';
import { fromChinaWallClock, toChinaWallClock } from './china-wall-clock';

/** A value a form control holds. */
export type FormValue = unknown;

const DATE = 'YYYY-MM-DD';

/** JSON text that does not parse: kept so the validator can say so. */
class BadJson {
  constructor(readonly text: string) {}
}

export function toFormValue(field: FieldDef, wire: unknown): FormValue {
  // Never prefilled: a write-only value is not known to the client (the server shows a mask).
  if (field.writeOnly) return undefined;
  if (wire === null || wire === undefined) return field.type === 'boolean' ? false : undefined;
  switch (field.type) {
    case 'money':
      return typeof wire === 'number' ? Number(fenToYuan(wire)) : undefined;
    case 'datetime':
      // China's wall clock, as the list shows it, whatever the browser's zone.
      return toChinaWallClock(wire as string) ?? undefined;
    case 'date': {
      const d = dayjs(wire as string);
      return d.isValid() ? d : undefined;
    }
    case 'json':
      return JSON.stringify(wire, null, 2);
    case 'password':
      return undefined;
    default:
      return wire;
  }
}

export function toWireValue(field: FieldDef, value: FormValue): unknown {
  if (value === undefined || value === null) return null;
  switch (field.type) {
    case 'money': {
      if (value === '') return null;
      const fen = yuanToFen(String(value));
      // Not a yuan amount with at most two decimals: the zod schema reports an invalid number.
      return fen ?? Number(value) * 100;
    }
    case 'integer':
    case 'number':
      return value === '' ? null : value;
    case 'datetime':
      return fromChinaWallClock(value as Dayjs);
    case 'date':
      return (value as Dayjs).format(DATE);
    case 'json': {
      const text = String(value).trim();
      if (text === '') return null;
      try {
        return JSON.parse(text);
      } catch {
        return new BadJson(text);
      }
    }
    case 'stringList':
      return Array.isArray(value) ? value.map((v) => String(v).trim()).filter(Boolean) : value;
    default:
      return value;
  }
}

/** The first message core's schema gives for this wire value, or null when it passes. */
export function validateWire(field: FieldDef, wire: unknown, mode: ValidationMode): string | null {
  if (wire instanceof BadJson) return format(formMessages.invalidType, { label: field.label, type: 'JSON' });
  const result = fieldSchema(field, mode).safeParse(wire);
  if (result.success) return null;
  return (
    result.error.issues[0]?.message ?? format(formMessages.invalidType, { label: field.label, type: '' })
  );
}

/**
 * The antd Form rule of a field: core's zod schema on the wire value. A form shows every field, so
 * a required one must be filled on edit too (core's update mode would take a blank as "unchanged");
 * write-only fields left blank on edit keep their stored value.
 */
export function fieldRule(field: FieldDef, editing: boolean) {
  const mode: ValidationMode = editing && field.writeOnly ? 'update' : 'create';
  return {
    validator: async (_rule: unknown, value: FormValue) => {
      const message = validateWire(field, toWireValue(field, value), mode);
      if (message) throw new Error(message);
    },
  };
}

/** Wire values are compared as JSON: a form that was not touched sends nothing. */
export function sameWire(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
