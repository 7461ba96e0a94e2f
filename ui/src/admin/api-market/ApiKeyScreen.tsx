/**
 * api-market/user-api-key (custom screen): every user's keys by prefix (never the secret), with
 * 创建 Key (user, name, scopes) and 轮换 — both answer the key once, shown by KeyReveal — and 吊销.
 * The generic apiKeys list is left out of the tabs: its 轮换 would rotate without showing the new
 * key. The calls list (apiCalls) follows as a tab with every generic feature.
 */
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { createResourceClient, type Row } from '@wanxiang/core';
import { App, Button, Space, Table, Tag } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { timeText } from '../../monitor/format';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import { SearchBox } from '../monitor/SearchBox';
import '../monitor/boards.css';
import { definition } from '../../resources/definitions';
import { useBoardList } from '../use-board-list';
import type { Revealed } from './KeyReveal';

// Loaded on use, so the board shows without them: 创建 Key (antd Form) and the one-time reveal of
// a key (antd Typography's copy button).
const CreateKeyDialog = lazy(() => import('./CreateKeyDialog'));
const KeyReveal = lazy(() => import('./KeyReveal'));

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

function KeyBoard() {
  const { http } = useServices();
  const { modal } = App.useApp();
  const client = useMemo(() => createResourceClient<KeyRow>(http, definition('apiKeys')), [http]);
  const { page, setPage, search, rows, relations, total, loading, reload } = useBoardList(client, PAGE);
  const [creating, setCreating] = useState(false);
  const [revealed, setRevealed] = useState<Revealed | null>(null);
  // Each dialog stays mounted from its first use on, so closing keeps the Modal's animation.
  const [createOpened, setCreateOpened] = useState(false);
  const [revealOpened, setRevealOpened] = useState(false);
  const reveal = (shown: Revealed) => {
    setRevealOpened(true);
    setRevealed(shown);
  };

  const rotate = (row: KeyRow) =>
    modal.confirm({
      title: `轮换「${row.name}」？`,
      content: '轮换后旧 Key 立即失效，新 Key 只显示一次。',
      okText: '轮换',
      onOk: async () => {
        const answer = await client.action(row.id, 'rotate');
        if (answer.key) reveal({ key: answer.key, name: row.name, rotated: true });
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
        <SearchBox placeholder="名称或 Key 前缀" onSearch={search} />
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
            刷新
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setCreateOpened(true);
              setCreating(true);
            }}
          >
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
      {createOpened && (
        <Suspense fallback={null}>
          <CreateKeyDialog
            open={creating}
            onClose={() => setCreating(false)}
            onCreated={(made) => {
              setCreating(false);
              if (made) reveal(made);
              void reload();
            }}
          />
        </Suspense>
      )}
      {revealOpened && (
        <Suspense fallback={null}>
          <KeyReveal revealed={revealed} onClose={() => setRevealed(null)} />
        </Suspense>
      )}
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
