/**
 * OpenAPI descriptions of the generic routes, generated from the registry: the row, the create
 * and update bodies, and the list's query parameters of each resource. They document only —
 * validation is core's zod schema (the routes switch ajv off), so the two can never disagree.
 */
import {
  type FieldDef,
  isFilterable,
  ORDERED_TYPES,
  type ResourceDef,
  readableFields,
  searchableFields,
  writableFields,
} from '@wanxiang/core';
import { MASK } from './storage.js';

type Json = Record<string, unknown>;

function valueSchema(field: FieldDef): Json {
  const base: Json = { title: field.label };
  if (field.help) base.description = field.help;
  switch (field.type) {
    case 'integer':
    case 'relation':
      return { ...base, type: 'integer' };
    case 'money':
      return { ...base, type: 'integer', description: '金额，单位：分' };
    case 'number':
      return { ...base, type: 'number' };
    case 'boolean':
      return { ...base, type: 'boolean' };
    case 'datetime':
      return { ...base, type: 'string', format: 'date-time' };
    case 'date':
      return { ...base, type: 'string', format: 'date' };
    case 'enum':
      return {
        ...base,
        type: 'string',
        enum: field.options.map((o) => o.value),
        description: field.options.map((o) => `${o.value}=${o.label}`).join('，'),
      };
    case 'enumList':
      return { ...base, type: 'array', items: { type: 'string', enum: field.options.map((o) => o.value) } };
    case 'relationList':
      return { ...base, type: 'array', items: { type: 'integer' } };
    case 'stringList':
      return { ...base, type: 'array', items: { type: 'string' } };
    case 'json':
      return base;
    default:
      return { ...base, type: 'string' };
  }
}

export function rowSchema(def: ResourceDef): Json {
  const properties: Json = {
    id: { type: 'integer' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time', description: '用于 If-Match 防止覆盖他人的修改' },
  };
  for (const [name, field] of readableFields(def))
    properties[name] = { ...valueSchema(field), nullable: true };
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.writeOnly && field.type !== 'password') {
      properties[name] = {
        type: 'string',
        nullable: true,
        title: field.label,
        description: `只写；已设置时显示 ${MASK}`,
      };
    }
  }
  return { type: 'object', title: def.title, properties };
}

export function bodySchema(def: ResourceDef, mode: 'create' | 'update'): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const [name, field] of writableFields(def)) {
    if (mode === 'update' && field.createOnly) continue;
    properties[name] = valueSchema(field);
    if (mode === 'create' && field.required) required.push(name);
  }
  if (mode === 'update') {
    properties.updatedAt = {
      type: 'string',
      format: 'date-time',
      description: '与当前 updatedAt 不同则 409',
    };
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

export function listQuerySchema(def: ResourceDef): Json {
  const properties: Json = {
    page: { type: 'integer', minimum: 1, description: '页码，从 1 开始（别名 pageIndex）' },
    limit: { type: 'integer', minimum: 1, maximum: 500, description: '每页条数，默认 20（别名 pageSize）' },
    sort: { type: 'string', description: '排序字段，逗号分隔；前缀 - 表示倒序，默认最新在前' },
    cursor: { type: 'string', description: '上一页的 page.nextCursor：按键集继续（不用 OFFSET）' },
    withTotal: {
      type: 'string',
      enum: ['true', 'false', '1', '0'],
      description: 'false 或 0：不计算总数，page.total 为 -1（只要一页数据时更快）',
    },
  };
  if (searchableFields(def).length > 0) {
    properties.q = { type: 'string', description: `关键字：${searchableFields(def).join('、')}` };
  }
  const filterable = ['id', 'createdAt', 'updatedAt', ...Object.keys(def.fields)].filter((n) =>
    isFilterable(def, n),
  );
  for (const name of filterable) {
    const field = def.fields[name];
    const type = field?.type ?? (name === 'id' ? 'integer' : 'datetime');
    properties[name] = { type: 'string', description: `${field?.label ?? name}等于` };
    properties[`${name}_in`] = { type: 'string', description: '逗号分隔的多个值' };
    if (ORDERED_TYPES.has(type)) {
      properties[`${name}_gte`] = { type: 'string', description: '不小于' };
      properties[`${name}_lte`] = { type: 'string', description: '不大于' };
    }
  }
  return { type: 'object', properties };
}
