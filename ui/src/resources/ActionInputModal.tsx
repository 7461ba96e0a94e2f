/**
 * An action that takes input (a reason, a new password, users to give a coupon to): its fields in
 * a small form, checked field by field and then by the action's cross-field rules, as the server
 * will. A row action names its row in the title; a collection action (the toolbar's) has none.
 */
import { type ActionDef, isApiError, MODAL_WIDTH, type Row, rowRuleErrors } from '@wanxiang/core';
import { App, Form, Modal } from 'antd';
import { useState } from 'react';
import { useScreenActive } from '../admin/tabs/screen-location';
import { FieldInput, valuePropName } from './FieldInput';
import { unreportedFailure } from './failures';
import { fieldRule, toWireValue } from './form-values';
import { rowName } from './row-name';
import type { ListController } from './useListController';

export interface ActionInputModalProps {
  controller: ListController;
  /** null: a collection action. */
  row: Row | null;
  action: ActionDef;
  onClose(): void;
}

export function ActionInputModal({ controller, row, action, onClose }: ActionInputModalProps) {
  const { message } = App.useApp();
  const shown = useScreenActive();
  const [form] = Form.useForm();
  const [running, setRunning] = useState(false);
  const fields = Object.entries(action.input ?? {});

  const submit = async (values: Record<string, unknown>) => {
    const input: Record<string, unknown> = {};
    for (const [name, field] of fields) input[name] = toWireValue(field, values[name]);
    const broken = Object.entries(rowRuleErrors(action.rules, input));
    if (broken.length > 0) {
      form.setFields(broken.map(([name, text]) => ({ name, errors: [text] })));
      return;
    }
    setRunning(true);
    try {
      if (row) await controller.runAction(row, action.name, input);
      else await controller.runCollectionAction(action.name, input);
      onClose();
    } catch (error) {
      const onForm = isApiError(error)
        ? Object.entries(error.fields).filter(([name]) => name in (action.input ?? {}))
        : [];
      if (onForm.length > 0) form.setFields(onForm.map(([name, text]) => ({ name, errors: [text] })));
      else {
        const text = unreportedFailure(error);
        if (text) message.error(text);
      }
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      open={shown}
      title={
        row
          ? `${action.label}：${rowName(controller.def, row)}`
          : `${action.label}（${controller.def.title}）`
      }
      width={MODAL_WIDTH}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ danger: action.danger }}
      confirmLoading={running}
      forceRender
    >
      {action.confirm && <p className="wx-action-confirm">{action.confirm}</p>}
      <Form form={form} layout="vertical" onFinish={submit} name={`${controller.def.name}-${action.name}`}>
        {fields.map(([name, field]) => (
          <Form.Item
            key={name}
            name={name}
            label={field.label}
            required={!!field.required}
            rules={[fieldRule(field, false)]}
            valuePropName={valuePropName(field)}
            extra={field.help}
            validateFirst
          >
            <FieldInput field={field} editing={false} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
