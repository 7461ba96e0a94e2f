/**
 * api-market/user-api-key (custom screen): every user's keys by prefix (never the secret), with
 * 创建 Key (user, name, scopes) and 轮换 — both answer the key once, shown by KeyReveal — and 吊销.
 * The generic apiKeys list is left out of the tabs: its 轮换 would rotate without showing the new
 * key. The calls list (apiCalls) follows as a tab with every generic feature.
 */
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { createResourceClient, MAX_API_KEYS_PER_USER, type Relations, type Row } from '@wanxiang/core';
import { App, Button, Form, Modal, Space, Table, Tag } from 'antd';
// The Input alone (as the order board does): antd's Input index would bring Password, Search and OTP.
import Input from 'antd/es/input/Input';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { timeText } from '../../monitor/format';
import { failureText } from '../../public/use-remote';
import { RelationSelect } from '../../resources/RelationSelect';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import { SearchBox } from '../monitor/SearchBox';
import '../monitor/boards.css';
import { definition } from '../../resources/definitions';
import { KeyReveal, type Revealed } from './KeyReveal';

const PAGE = 20;

interface KeyRow extends Row {
  userId: number | null;
  name: string;
  prefix: string;
  scopes: number[] | null;
  status: 'active' | 'revoked';
  lastUsedAt: string | null;
  key?: string;
}

interface CreateValues {
  userId: number;
  name: string;
  scopes?: number[];
}

function KeyBoard() {
  const { http } = useServices();
  const { message, modal } = App.useApp();
  const client = useMemo(() => createResourceClient<KeyRow>(http, definition('apiKeys')), [http]);
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [rows, setRows] = useState<KeyRow[]>([]);
  const [relations, setRelations] = useState<Relations>({});
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [creating, setCreating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  const [form] = Form.useForm<CreateValues>();

  const reload = useCallback(async () => {
    setLoading(true);
    const answer = await client.list({ page, limit: PAGE, q: q || undefined });
    setLoading(false);
    if (!answer.success) {
      message.error(failureText(answer.error));
      return;
    }
    setRows(answer.list);
    setRelations(answer.relations);
    setTotal(answer.count);
  }, [client, page, q, message]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const create = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const made = await client.create({ ...values, scopes: values.scopes ?? [] });
      setCreating(false);
      form.resetFields();
      if (made.key) setRevealed({ key: made.key, name: made.name, rotated: false });
      void reload();
    } catch {
      // The HTTP client has told the user why (409 上限, 422 per field).
    } finally {
      setSaving(false);
    }
  };

  const rotate = (row: KeyRow) =>
    modal.confirm({
      title: `轮换「${row.name}」？`,
      content: '轮换后旧 Key 立即失效，新 Key 只显示一次。',
      okText: '轮换',
      onOk: async () => {
        const answer = await client.action(row.id, 'rotate');
        if (answer.key) setRevealed({ key: answer.key, name: row.name, rotated: true });
        void reload();
      },
    });

  const revoke = (row: KeyRow) =>
    modal.confirm({
      title: `吊销「${row.name}」？`,
      content: '吊销后使用此 Key 的调用立即失败，且不能恢复。',
      okText: '吊销',
      okButtonProps: { danger: true },
      onOk: async () => {
        await client.action(row.id, 'revoke'); // the server's 吊销成功 is shown by the HTTP client
        void reload();
      },
    });

  const apiNames = relations.scopes ?? {};
  return (
    <div className="wx-monitor-board">
      <div className="wx-monitor-toolbar">
        <SearchBox
          placeholder="名称或 Key 前缀"
          onSearch={(value) => {
            setPage(1);
            setQ(value);
          }}
        />
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
            刷新
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
            创建 Key
          </Button>
        </Space>
      </div>
      <Table<KeyRow>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 900 }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: '暂无 API Key' }}
        columns={[
          { title: '名称', dataIndex: 'name' },
          {
            title: '用户',
            dataIndex: 'userId',
            render: (id: number | null) => (id == null ? '—' : (relations.userId?.[String(id)] ?? `#${id}`)),
          },
          {
            title: 'Key 前缀',
            dataIndex: 'prefix',
            render: (prefix: string) => <code>{prefix}…</code>,
          },
          {
            title: '可调用的 API',
            dataIndex: 'scopes',
            render: (scopes: number[] | null) =>
              scopes && scopes.length > 0 ? (
                scopes.map((id) => <Tag key={id}>{apiNames[String(id)] ?? `#${id}`}</Tag>)
              ) : (
                <Tag color="blue">全部</Tag>
              ),
          },
          {
            title: '状态',
            dataIndex: 'status',
            width: 90,
            render: (s: string) =>
              s === 'active' ? <Tag color="green">有效</Tag> : <Tag color="red">已吊销</Tag>,
          },
          { title: '最近使用', dataIndex: 'lastUsedAt', width: 170, render: (v) => timeText(v) },
          {
            title: '操作',
            key: 'actions',
            width: 130,
            fixed: 'right',
            render: (_, row) =>
              row.status === 'active' ? (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => rotate(row)}>
                    轮换
                  </Button>
                  <Button type="link" size="small" danger onClick={() => revoke(row)}>
                    吊销
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Modal
        open={creating}
        title="创建 API Key"
        okText="创建"
        confirmLoading={saving}
        onOk={() => void create()}
        onCancel={() => setCreating(false)}
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
      <KeyReveal revealed={revealed} onClose={() => setRevealed(null)} />
    </div>
  );
}

export default function ApiKeyScreen() {
  return (
    <RouteTabs
      route="api-market/user-api-key"
      boardTitle="Key 管理"
      board={<KeyBoard />}
      skip={['apiKeys']}
    />
  );
}
