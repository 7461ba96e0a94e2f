/**
 * Field definitions of the resource registry: one declaration per field gives its wire type, its
 * Chinese label, its validation, and how lists may filter, sort and search it. Builders (`f.*`)
 * keep the definitions short enough to read as a catalogue.
 */
import type { JSON_SHAPES } from './json-shapes';

export type JsonShapeName = keyof typeof JSON_SHAPES;

export interface EnumOption {
  value: string;
  label: string;
  /** antd Tag colour for the list column. */
  color?: string;
}

interface FieldCommon {
  label: string;
  /** Must be given on create. */
  required?: boolean;
  /** Set by the server (ledgers, counters, timestamps): never accepted in a body. */
  readOnly?: boolean;
  /** Accepted in bodies, never returned (passwords, secrets). */
  writeOnly?: boolean;
  /** Only given on create; later changes go through an action (a user's password). */
  createOnly?: boolean;
  /** May be a list filter: `field=value`, and for ordered types `_gte`/`_lte`; `_in` lists. */
  filterable?: boolean;
  sortable?: boolean;
  /** Part of the keyword search `q`. */
  searchable?: boolean;
  /** Unique among the resource's rows: a duplicate is a 409. */
  unique?: boolean;
  /** Not shown as a list column unless the user picks it. */
  hideInList?: boolean;
  /** Value on create when none is given. */
  default?: unknown;
  /** A hint under the form field. */
  help?: string;
}

export type StringFormat = 'phone' | 'email' | 'url' | 'plain';

export type FieldDef =
  | (FieldCommon & {
      type: 'string';
      min?: number;
      max?: number;
      format?: StringFormat;
      pattern?: string;
      /** What to say when the pattern does not match (else the generic message with the regex). */
      patternMessage?: string;
    })
  | (FieldCommon & { type: 'text' | 'markdown'; max?: number })
  | (FieldCommon & { type: 'password'; min?: number; max?: number })
  | (FieldCommon & { type: 'integer' | 'number'; min?: number; max?: number; unit?: string })
  /** Integer fen (分) on the wire; shown as ¥ yuan. */
  | (FieldCommon & { type: 'money'; min?: number; max?: number })
  | (FieldCommon & { type: 'boolean' })
  /** ISO 8601 on the wire. */
  | (FieldCommon & { type: 'datetime' })
  /** `YYYY-MM-DD` on the wire. */
  | (FieldCommon & { type: 'date' })
  | (FieldCommon & { type: 'enum'; options: readonly EnumOption[] })
  | (FieldCommon & { type: 'enumList'; options: readonly EnumOption[]; min?: number; max?: number })
  /**
   * The id of a row of another resource, shown by that row's display field. `within` names a
   * field both rows have that must agree: a good's 分类 must be of the good's own 门店
   * (`within: 'storeId'`). The server refuses a row that breaks it (422, `withinMessage` or
   * 所选<label>不属于该<the field's label>), and the form's picker lists only matching rows.
   */
  | (FieldCommon & { type: 'relation'; resource: string; within?: string; withinMessage?: string })
  | (FieldCommon & { type: 'relationList'; resource: string; min?: number; max?: number })
  | (FieldCommon & { type: 'stringList'; max?: number; itemMax?: number })
  /** A stored file: `/api/files/{id}` URL or an external URL. */
  | (FieldCommon & { type: 'image' | 'file'; accept?: string })
  /** Structured JSON; the named shape (json-shapes.ts) validates it (order items, SKU lists, tiers …). */
  | (FieldCommon & { type: 'json'; shape?: JsonShapeName });

export type FieldType = FieldDef['type'];

/** Types whose values have an order, so `_gte`/`_lte` filters and sorting make sense. */
export const ORDERED_TYPES: ReadonlySet<FieldType> = new Set([
  'integer',
  'number',
  'money',
  'datetime',
  'date',
  'string',
]);

/** Types stored as JSON text. */
export const JSON_TYPES: ReadonlySet<FieldType> = new Set(['json', 'stringList', 'enumList', 'relationList']);

/** The member of FieldDef whose `type` admits T (some members cover two types). */
type Variant<T extends FieldType> = FieldDef extends infer U
  ? U extends { type: infer K }
    ? T extends K
      ? U
      : never
    : never
  : never;
type Opts<T extends FieldType> = Omit<Variant<T>, 'type' | 'label'>;

export const f = {
  string: (label: string, o: Opts<'string'> = {}): FieldDef => ({ type: 'string', label, max: 100, ...o }),
  phone: (label: string, o: Opts<'string'> = {}): FieldDef => ({
    type: 'string',
    label,
    format: 'phone',
    max: 20,
    ...o,
  }),
  email: (label: string, o: Opts<'string'> = {}): FieldDef => ({
    type: 'string',
    label,
    format: 'email',
    max: 100,
    ...o,
  }),
  url: (label: string, o: Opts<'string'> = {}): FieldDef => ({
    type: 'string',
    label,
    format: 'url',
    max: 500,
    ...o,
  }),
  text: (label: string, o: Opts<'text'> = {}): FieldDef => ({
    type: 'text',
    label,
    max: 2000,
    hideInList: true,
    ...o,
  }),
  markdown: (label: string, o: Opts<'markdown'> = {}): FieldDef => ({
    type: 'markdown',
    label,
    max: 200_000,
    hideInList: true,
    ...o,
  }),
  password: (label: string, o: Opts<'password'> = {}): FieldDef => ({
    type: 'password',
    label,
    min: 8,
    max: 128,
    writeOnly: true,
    ...o,
  }),
  integer: (label: string, o: Opts<'integer'> = {}): FieldDef => ({ type: 'integer', label, ...o }),
  number: (label: string, o: Opts<'number'> = {}): FieldDef => ({ type: 'number', label, ...o }),
  money: (label: string, o: Opts<'money'> = {}): FieldDef => ({ type: 'money', label, min: 0, ...o }),
  boolean: (label: string, o: Opts<'boolean'> = {}): FieldDef => ({
    type: 'boolean',
    label,
    default: false,
    ...o,
  }),
  datetime: (label: string, o: Opts<'datetime'> = {}): FieldDef => ({ type: 'datetime', label, ...o }),
  date: (label: string, o: Opts<'date'> = {}): FieldDef => ({ type: 'date', label, ...o }),
  enum: (label: string, options: readonly EnumOption[], o: Omit<Opts<'enum'>, 'options'> = {}): FieldDef => ({
    type: 'enum',
    label,
    options,
    filterable: true,
    ...o,
  }),
  enumList: (
    label: string,
    options: readonly EnumOption[],
    o: Omit<Opts<'enumList'>, 'options'> = {},
  ): FieldDef => ({
    type: 'enumList',
    label,
    options,
    ...o,
  }),
  relation: (label: string, resource: string, o: Omit<Opts<'relation'>, 'resource'> = {}): FieldDef => ({
    type: 'relation',
    label,
    resource,
    filterable: true,
    ...o,
  }),
  relationList: (
    label: string,
    resource: string,
    o: Omit<Opts<'relationList'>, 'resource'> = {},
  ): FieldDef => ({
    type: 'relationList',
    label,
    resource,
    hideInList: true,
    ...o,
  }),
  stringList: (label: string, o: Opts<'stringList'> = {}): FieldDef => ({
    type: 'stringList',
    label,
    max: 50,
    itemMax: 50,
    ...o,
  }),
  image: (label: string, o: Opts<'image'> = {}): FieldDef => ({
    type: 'image',
    label,
    accept: 'image/*',
    ...o,
  }),
  file: (label: string, o: Opts<'file'> = {}): FieldDef => ({ type: 'file', label, ...o }),
  json: (label: string, o: Opts<'json'> = {}): FieldDef => ({ type: 'json', label, hideInList: true, ...o }),
};

/** `[['open','营业中','green'], …]` → options. */
export function options(...rows: readonly (readonly [string, string, string?])[]): EnumOption[] {
  return rows.map(([value, label, color]) => (color ? { value, label, color } : { value, label }));
}
