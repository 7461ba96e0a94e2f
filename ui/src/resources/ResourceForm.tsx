/**
 * Create and edit of one row, from the registry: a Modal (width 520) for short forms, a Drawer for
 * long ones (many fields, Markdown, JSON). Every field is checked with core's zod schema before
 * sending; the server's per-field messages (422, or a 409 naming the duplicate field) land on
 * their fields; an edit sends only what changed, with the row's updatedAt as If-Match, and a row
 * someone else changed meanwhile (409) is offered for reloading.
 */
import {
  CONFIRM_WIDTH,
  type FieldDef,
  isApiError,
  MODAL_WIDTH,
  type Relations,
  type Row,
  rowRuleErrors,
  writableFields,
} from '@wanxiang/core';
import { App, Button, Drawer, Form, Modal, Space } from 'antd';
import { type ReactNode, useMemo, useState } from 'react';
import { SCREEN_DRAWER_STYLE } from '../admin/screen-drawer';
import { useScreenActive } from '../admin/tabs/screen-location';
import { FieldInput, valuePropName } from './FieldInput';
import { unreportedFailure } from './failures';
import { fieldRule, sameWire, toFormValue, toWireValue } from './form-values';
import type { ListController } from './useListController';

const DRAWER_FIELDS = 8;
const DRAWER_WIDTH = 720;

/** Drawers open over the screen only, below the header and the tab bar (admin/screen-drawer.ts). */
export { SCREEN_DRAWER_STYLE };

export function formFields(controller: ListController, editing: boolean): [string, FieldDef][] {
  return writableFields(controller.def).filter(([, field]) => !(editing && field.createOnly));
}

/** In a drawer's two columns, the fields that take a whole row. */
function wide(field: FieldDef): boolean {
  switch (field.type) {
    case 'text':
    case 'markdown':
    case 'json':
    case 'stringList':
    case 'enumList':
    case 'relationList':
    case 'image':
    case 'file':
      return true;
    case 'string':
      return field.format === 'url' || (field.max ?? 100) > 50;
    default:
      return false;
  }
}

/**
 * The fields that take a whole row of the drawer's two columns: long ones, and a short one that
 * would otherwise sit alone beside an empty half (the next field is long, or there is none).
 */
export function wideFields(fields: readonly [string, FieldDef][]): Set<string> {
  const out = new Set<string>();
  let column = 0;
  fields.forEach(([name, field], i) => {
    const next = fields[i + 1];
    if (wide(field) || (column === 0 && (!next || wide(next[1])))) {
      out.add(name);
      column = 0;
    } else {
      column = (column + 1) % 2;
    }
  });
  return out;
}

/** Long forms and big text go in a drawer. */
export function usesDrawer(fields: readonly [string, FieldDef][]): boolean {
  return fields.length > DRAWER_FIELDS || fields.some(([, f]) => f.type === 'markdown' || f.type === 'json');
}

function initialValues(fields: readonly [string, FieldDef][], row: Row | null): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, field] of fields) {
    values[name] = toFormValue(field, row ? row[name] : field.default);
  }
  return values;
}

/** What to send: everything given on create; on edit only the changes (write-only fields when typed). */
export function bodyOf(
  fields: readonly [string, FieldDef][],
  values: Record<string, unknown>,
  row: Row | null,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, field] of fields) {
    const wire = toWireValue(field, values[name]);
    if (!row || field.writeOnly) {
      if (wire !== null && wire !== '') body[name] = wire;
    } else if (!sameWire(wire, row[name])) {
      body[name] = wire;
    }
  }
  return body;
}

export interface ResourceFormProps {
  controller: ListController;
  /** null: a new row. */
  row: Row | null;
  relations: Relations;
  onClose(): void;
}

export function ResourceForm({ controller, row: initialRow, relations, onClose }: ResourceFormProps) {
  const { def } = controller;
  const { message, modal } = App.useApp();
  // In a tab that is not shown, the dialog waits (hidden, with what was typed) for its tab.
  const shown = useScreenActive();
  const [form] = Form.useForm();
  const [row, setRow] = useState(initialRow);
  const [saving, setSaving] = useState(false);
  const editing = row !== null;
  const fields = useMemo(() => formFields(controller, editing), [controller, editing]);
  const drawer = usesDrawer(fields);
  const wideOnes = useMemo(() => wideFields(fields), [fields]);
  const title = `${editing ? '编辑' : '新建'}${def.title}`;

  const reload = async (id: number) => {
    try {
      const latest = await controller.client.get(id);
      setRow(latest);
      form.setFieldsValue(initialValues(fields, latest));
      controller.refetch();
    } catch (error) {
      const text = unreportedFailure(error);
      if (text) message.error(text);
    }
  };

  const showFailure = (error: unknown) => {
    if (isApiError(error)) {
      const known = new Set(fields.map(([name]) => name));
      const entries = Object.entries(error.fields);
      const onForm = entries.filter(([name]) => known.has(name));
      if (onForm.length > 0) {
        form.setFields(onForm.map(([name, text]) => ({ name, errors: [text] })));
        const elsewhere = entries.filter(([name]) => !known.has(name)).map(([, text]) => text);
        if (elsewhere.length > 0) message.error(elsewhere.join('；'));
        return;
      }
      if (error.status === 409 && row) {
        modal.confirm({
          title: '保存失败',
          content: (
            <>
              <p className="wx-conflict-message">{error.message}</p>
              <p className="wx-conflict-hint">重新加载将以最新内容替换表单中的修改。</p>
            </>
          ),
          okText: '重新加载',
          cancelText: '取消',
          width: CONFIRM_WIDTH,
          onOk: () => reload(row.id),
        });
        return;
      }
    }
    const text = unreportedFailure(error);
    if (text) message.error(text);
  };

  const submit = async (values: Record<string, unknown>) => {
    const body = bodyOf(fields, values, row);
    if (row && Object.keys(body).length === 0) {
      message.info('没有需要保存的修改');
      onClose();
      return;
    }
    // The definition's cross-field rules on the row as it will be saved (as the server checks).
    const broken = Object.entries(rowRuleErrors(def.rules, { ...row, ...body }));
    if (broken.length > 0) {
      form.setFields(broken.map(([name, text]) => ({ name, errors: [text] })));
      form.scrollToField(broken[0]?.[0] as string);
      return;
    }
    setSaving(true);
    try {
      if (row) await controller.update(row, body);
      else await controller.create(body);
      onClose();
    } catch (error) {
      showFailure(error);
    } finally {
      setSaving(false);
    }
  };

  const body: ReactNode = (
    <Form
      form={form}
      layout="vertical"
      initialValues={initialValues(fields, row)}
      onFinish={submit}
      onValuesChange={(changed: Record<string, unknown>) => {
        // A relation within a field that changed may now point at a row of another (a category
        // of the store before): it is chosen again.
        for (const [name, field] of fields) {
          if (field.type === 'relation' && field.within && field.within in changed) {
            form.setFieldValue(name, undefined);
          }
        }
      }}
      className={drawer ? 'wx-resource-form wx-resource-form-columns' : 'wx-resource-form'}
      name={`${def.name}-form`}
      scrollToFirstError
    >
      {fields.map(([name, field]) => (
        <Form.Item
          key={name}
          name={name}
          label={field.label}
          className={drawer && wideOnes.has(name) ? 'wx-form-wide' : undefined}
          required={!!field.required && !(editing && field.writeOnly)}
          rules={[fieldRule(field, editing)]}
          valuePropName={valuePropName(field)}
          extra={field.help}
          validateFirst
        >
          <FieldInput field={field} editing={editing} labels={relations[name]} resource={def.name} />
        </Form.Item>
      ))}
    </Form>
  );

  if (drawer) {
    return (
      <Drawer
        open={shown}
        title={title}
        size={DRAWER_WIDTH}
        onClose={onClose}
        rootStyle={SCREEN_DRAWER_STYLE}
        // A click beside the form must not throw away what was typed.
        mask={{ closable: false }}
        className="wx-resource-drawer"
        extra={
          <Space>
            <Button onClick={onClose}>取消</Button>
            <Button type="primary" loading={saving} onClick={() => form.submit()}>
              保存
            </Button>
          </Space>
        }
      >
        {body}
      </Drawer>
    );
  }
  return (
    <Modal
      open={shown}
      title={title}
      width={MODAL_WIDTH}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="保存"
      confirmLoading={saving}
      className="wx-resource-modal"
      forceRender
    >
      {body}
    </Modal>
  );
}
