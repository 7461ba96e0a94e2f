/**
 * bbs/wechat (custom screen): the chat bots with their keyword rules edited as a form list
 * (关键词, 匹配方式, 回复) instead of the generic JSON text, and a test box per bot (type a
 * message, see the reply and which rule answered: POST /api/admin/chatBots/:id/reply, core's
 * chatBotReply on the server). The generic list follows as a tab.
 */
import { PlusOutlined } from '@ant-design/icons';
import { createResourceClient } from '@wanxiang/core';
import { App, Button, Empty, Skeleton, Table, Tag } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import './review.css';
import { definition } from '../../resources/definitions';
import type { BotRow } from './chat-bot';

// Loaded on use, so the list shows without them: the rules editor (antd Form) and the test box.
const RulesEditor = lazy(() => import('./RulesEditor'));
const TestBox = lazy(() => import('./BotTestBox'));

function ChatBotBoard() {
  const { http } = useServices();
  const { message } = App.useApp();
  const client = useMemo(() => createResourceClient<BotRow>(http, definition('chatBots')), [http]);
  const [rows, setRows] = useState<BotRow[]>([]);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<BotRow | 'new' | null>(null);
  const [testing, setTesting] = useState<BotRow | null>(null);

  const reload = useCallback(async () => {
    setLoading(true);
    const answer = await client.list({ limit: 100, sort: '-createdAt' });
    setLoading(false);
    if (!answer.success) {
      message.error(failureText(answer.error));
      return;
    }
    setRows(answer.list);
  }, [client, message]);

  useEffect(() => {
    void reload();
  }, [reload]);

  if (loading && rows.length === 0) return <Skeleton active />;
  return (
    <div className="wx-bot-board">
      <div className="wx-review-bar">
        <span>
          共 <b>{rows.length}</b> 个机器人
        </span>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          新建机器人
        </Button>
      </div>
      {rows.length === 0 ? (
        <Empty description="还没有聊天机器人" />
      ) : (
        <Table<BotRow>
          rowKey="id"
          dataSource={rows}
          pagination={false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: '机器人名称', dataIndex: 'name' },
            {
              title: '关键词',
              key: 'rules',
              render: (_, bot) => (
                <span className="wx-bot-keywords">
                  {(bot.rules ?? []).slice(0, 6).map((r, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: rules are positional
                    <Tag key={i}>{r.keyword}</Tag>
                  ))}
                  {(bot.rules?.length ?? 0) > 6 && <span>等 {bot.rules?.length} 条</span>}
                </span>
              ),
            },
            {
              title: '状态',
              key: 'enabled',
              render: (_, bot) => (bot.enabled ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
            },
            {
              title: '操作',
              key: 'actions',
              render: (_, bot) => (
                <span className="wx-bot-actions">
                  <Button type="link" onClick={() => setTesting(bot)}>
                    测试回复
                  </Button>
                  <Button type="link" onClick={() => setEditing(bot)}>
                    编辑规则
                  </Button>
                </span>
              ),
            },
          ]}
        />
      )}
      {editing && (
        <Suspense fallback={null}>
          <RulesEditor
            bot={editing === 'new' ? null : editing}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              void reload();
            }}
          />
        </Suspense>
      )}
      {testing && (
        <Suspense fallback={null}>
          <TestBox bot={testing} onClose={() => setTesting(null)} />
        </Suspense>
      )}
    </div>
  );
}

export default function ChatBotScreen() {
  return <RouteTabs route="bbs/wechat" board={<ChatBotBoard />} boardTitle="机器人与测试" />;
}
