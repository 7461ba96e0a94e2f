/** An action that takes input (a reason, a new password): its fields in a small form. */
import { type ActionDef, isApiError, MODAL_WIDTH, type Row } from '@wanxiang/core';
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
  row: Row;
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
    setRunning(true);
    try {
      await controller.runAction(row, action.name, input);
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
      title={`${action.label}：${rowName(controller.def, row)}`}
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
