/** The form control of one field, by type (values as form-values.ts holds them). */
import type { FieldDef } from '@wanxiang/core';
import { DatePicker, Form, Input, InputNumber, Select, Switch } from 'antd';
import type { ReactNode } from 'react';
import { loadedDefinition } from './definitions';
import { RelationSelect } from './RelationSelect';
import { UploadInput } from './UploadInput';

export interface FieldInputProps {
  field: FieldDef;
  /** Names of related rows already known (from the list's relations). */
  labels?: Record<string, string>;
  editing: boolean;
  /** The resource of the form: image fields upload for it (its write permission). */
  resource?: string;
  /** antd Form.Item passes value/onChange/id through. */
  [control: string]: unknown;
}

const DATE_TIME = 'YYYY-MM-DD HH:mm';

/** Props for antd Form.Item: booleans bind `checked`. */
export function valuePropName(field: FieldDef): string {
  return field.type === 'boolean' ? 'checked' : 'value';
}

export function FieldInput({ field, labels, editing, resource, ...control }: FieldInputProps): ReactNode {
  const placeholder = (verb: string) => `${verb}${field.label}`;
  if (field.writeOnly && (field.type === 'string' || field.type === 'password')) {
    // Secrets and ID numbers: typed hidden, never shown back; blank on edit keeps the stored one.
    return (
      <Input.Password
        {...control}
        autoComplete="new-password"
        maxLength={field.max}
        placeholder={editing ? '不修改请留空' : placeholder('请输入')}
      />
    );
  }
  switch (field.type) {
    case 'string':
      return (
        <Input
          {...control}
          maxLength={field.max}
          placeholder={placeholder('请输入')}
          inputMode={field.format === 'phone' ? 'tel' : field.format === 'email' ? 'email' : undefined}
          allowClear
        />
      );
    case 'text':
      return (
        <Input.TextArea
          {...control}
          maxLength={field.max}
          showCount={!!field.max && field.max <= 5000}
          autoSize={{ minRows: 3, maxRows: 8 }}
          placeholder={placeholder('请输入')}
        />
      );
    case 'markdown':
      return (
        <Input.TextArea
          {...control}
          className="wx-form-code"
          autoSize={{ minRows: 10, maxRows: 24 }}
          placeholder={`${placeholder('请输入')}（支持 Markdown）`}
        />
      );
    case 'json':
      return (
        <Input.TextArea
          {...control}
          className="wx-form-code"
          autoSize={{ minRows: 6, maxRows: 20 }}
          placeholder={`${placeholder('请输入')}（JSON）`}
          spellCheck={false}
        />
      );
    case 'password':
      return (
        <Input.Password
          {...control}
          autoComplete="new-password"
          placeholder={editing ? '不修改请留空' : placeholder('请输入')}
        />
      );
    case 'integer':
    case 'number':
      return (
        <InputNumber
          {...control}
          min={field.min}
          max={field.max}
          precision={field.type === 'integer' ? 0 : undefined}
          suffix={field.unit}
          placeholder={placeholder('请输入')}
          style={{ width: '100%' }}
        />
      );
    case 'money':
      return (
        <InputNumber
          {...control}
          prefix="¥"
          min={field.min === undefined ? undefined : field.min / 100}
          max={field.max === undefined ? undefined : field.max / 100}
          precision={2}
          step={1}
          placeholder={placeholder('请输入')}
          style={{ width: '100%' }}
        />
      );
    case 'boolean':
      return <Switch {...control} checkedChildren="是" unCheckedChildren="否" />;
    case 'datetime':
      return (
        <DatePicker
          {...control}
          showTime={{ format: 'HH:mm' }}
          // The picker holds China's wall clock (china-wall-clock.ts); 此刻 gives the browser's,
          // right only where the two are the same.
          showNow={new Date().getTimezoneOffset() === -480}
          format={DATE_TIME}
          placeholder={placeholder('请选择')}
          style={{ width: '100%' }}
        />
      );
    case 'date':
      return <DatePicker {...control} placeholder={placeholder('请选择')} style={{ width: '100%' }} />;
    case 'enum':
      return (
        <Select
          {...control}
          options={field.options.map((o) => ({ value: o.value, label: o.label }))}
          placeholder={placeholder('请选择')}
          allowClear={!field.required}
        />
      );
    case 'enumList':
      return (
        <Select
          {...control}
          mode="multiple"
          options={field.options.map((o) => ({ value: o.value, label: o.label }))}
          placeholder={placeholder('请选择')}
          allowClear
        />
      );
    case 'relation':
      if (field.within)
        return <WithinRelationSelect {...control} field={field} labels={labels} owner={resource} />;
      return <RelationSelect {...control} resource={field.resource} labels={labels} />;
    case 'relationList':
      return <RelationSelect {...control} resource={field.resource} labels={labels} multiple />;
    case 'stringList':
      return (
        <Select
          {...control}
          mode="tags"
          tokenSeparators={[',', '，']}
          open={false}
          suffixIcon={null}
          placeholder={`${placeholder('请输入')}，回车分隔`}
        />
      );
    case 'image':
      if (resource) return <UploadInput {...control} kind="image" resource={resource} />;
      return <Input {...control} placeholder="图片地址（https://… 或 /api/files/…）" allowClear />;
    case 'file':
      // Audio has an upload endpoint; other files (a movie's video) are given by address.
      if (resource && field.accept?.startsWith('audio/'))
        return <UploadInput {...control} kind="audio" resource={resource} />;
      return <Input {...control} placeholder="文件地址（https://… 或 /api/files/…）" allowClear />;
  }
}

/**
 * A relation declared `within` another field of the form (a good's 分类 within its 门店): it lists
 * only the rows that agree with that field's value, and waits until it has one.
 */
function WithinRelationSelect({
  field,
  labels,
  owner,
  ...control
}: {
  field: Extract<FieldDef, { type: 'relation' }>;
  labels?: Record<string, string>;
  /** The form's resource, whose field `within` names. */
  owner?: string;
  [control: string]: unknown;
}) {
  const form = Form.useFormInstance();
  const within = field.within as string;
  const withinLabel = (owner ? loadedDefinition(owner)?.fields[within]?.label : undefined) ?? '';
  const scope = Form.useWatch(within, form) as number | null | undefined;
  const none = scope === null || scope === undefined;
  return (
    <RelationSelect
      {...control}
      resource={field.resource}
      labels={labels}
      filters={none ? undefined : { [within]: scope }}
      disabled={none}
      placeholder={none ? `请先选择${withinLabel}` : undefined}
    />
  );
}
