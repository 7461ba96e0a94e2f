/**
 * 创建 Key of the key board: user, name and scopes. Its own lazy chunk — antd Form is needed only
 * once the dialog opens. The created key is handed back to be shown once (KeyReveal).
 */
import { createResourceClient, MAX_API_KEYS_PER_USER, type Row } from '@wanxiang/core';
import { Form, Modal } from 'antd';
// The Input alone (as the order board does): antd's Input index would bring Password, Search and OTP.
import Input from 'antd/es/input/Input';
import { useMemo, useState } from 'react';
import { definition } from '../../resources/definitions';
import { RelationSelect } from '../../resources/RelationSelect';
import { useServices } from '../../session/services-context';
import type { Revealed } from './KeyReveal';

interface CreateValues {
  userId: number;
  name: string;
  scopes?: number[];
}

export default function CreateKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  /** The new key to show once (null if the answer carried none). */
  onCreated: (made: Revealed | null) => void;
}) {
  const { http } = useServices();
  const client = useMemo(
    () => createResourceClient<Row & { name: string; key?: string }>(http, definition('apiKeys')),
    [http],
  );
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<CreateValues>();

  const create = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const made = await client.create({ ...values, scopes: values.scopes ?? [] });
      form.resetFields();
      onCreated(made.key ? { key: made.key, name: made.name, rotated: false } : null);
    } catch {
      // The HTTP client has told the user why (409 上限, 422 per field).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="创建 API Key"
      okText="创建"
      confirmLoading={saving}
      onOk={() => void create()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="userId" label="用户" rules={[{ required: true, message: '请选择用户' }]}>
          <RelationSelect resource="users" placeholder="搜索用户名或手机号" />
        </Form.Item>
        <Form.Item
          name="name"
          label="名称"
          rules={[
            { required: true, whitespace: true, message: '请输入名称' },
            { max: 50, message: '名称最多 50 个字' },
          ]}
        >
          <Input placeholder="如：生产环境、测试脚本" maxLength={50} />
        </Form.Item>
        <Form.Item
          name="scopes"
          label="可调用的 API"
          extra={`不选则可调用全部 API。每个用户最多 ${MAX_API_KEYS_PER_USER} 个有效 Key。`}
        >
          <RelationSelect resource="marketApis" multiple placeholder="全部 API" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
