/**
 * bbs/wechat (custom screen): the chat bots with their keyword rules edited as a form list
 * (关键词, 匹配方式, 回复) instead of the generic JSON text, and a test box per bot (type a
 * message, see the reply and which rule answered: POST /api/admin/chatBots/:id/reply, core's
 * chatBotReply on the server). The generic list follows as a tab.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { type ChatBotReply, createResourceClient, type Row } from '@wanxiang/core';
import { App, Button, Empty, Form, Input, Modal, Select, Skeleton, Switch, Table, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import './review.css';
import { definition } from '../../resources/definitions';

interface Rule {
  keyword: string;
  reply: string;
  match?: 'contains' | 'exact';
}
type BotRow = Row & { name: string; rules: Rule[] | null; enabled: boolean };
interface BotForm {
  name: string;
  enabled: boolean;
  rules: Rule[];
}

const MATCH_OPTIONS = [
  { value: 'contains', label: '包含关键词' },
  { value: 'exact', label: '完全一致' },
];

function RulesEditor({ bot, onClose, onSaved }: { bot: BotRow | null; onClose(): void; onSaved(): void }) {
  const { http } = useServices();
  const client = useMemo(() => createResourceClient<BotRow>(http, definition('chatBots')), [http]);
  const [form] = Form.useForm<BotForm>();
  const [saving, setSaving] = useState(false);
  const initial: BotForm = bot
    ? {
        name: bot.name,
        enabled: bot.enabled,
        rules: (bot.rules ?? []).map((r) => ({ ...r, match: r.match ?? 'contains' })),
      }
    : { name: '', enabled: true, rules: [{ keyword: '', reply: '', match: 'contains' }] };

  const save = async () => {
    const values = await form.validateFields();
    // 'contains' is the default: stored rules stay {keyword, reply} unless they ask for exact.
    const rules = values.rules.map(({ keyword, reply, match }) => ({
      keyword: keyword.trim(),
      reply: reply.trim(),
      ...(match === 'exact' ? { match } : {}),
    }));
    const body = { name: values.name.trim(), enabled: values.enabled, rules };
    setSaving(true);
    try {
      if (bot) await client.update(bot.id, body, bot.updatedAt);
      else await client.create(body);
      onSaved();
    } catch {
      // The HTTP client has told the user why.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      title={bot ? `编辑机器人：${bot.name}` : '新建机器人'}
      open
      width={760}
      okText="保存"
      cancelText="取消"
      okButtonProps={{ loading: saving }}
      onOk={() => void save().catch(() => {})}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial}>
        <Form.Item
          name="name"
          label="机器人名称"
          rules={[
            { required: true, whitespace: true, message: '请输入机器人名称' },
            { max: 30, message: '机器人名称不能超过 30 个字' },
          ]}
        >
          <Input placeholder="如：社区助手" />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch />
        </Form.Item>
        <div className="wx-bot-rules-title">关键词回复（按顺序匹配第一条）</div>
        <Form.List
          name="rules"
          rules={[
            {
              validator: async (_, rules: Rule[] | undefined) => {
                if (!rules || rules.length === 0) throw new Error('至少一条关键词规则');
                if (rules.length > 200) throw new Error('最多200条关键词规则');
              },
            },
          ]}
        >
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field, index) => (
                <fieldset key={field.key} className="wx-bot-rule" aria-label={`规则 ${index + 1}`}>
                  <span className="wx-bot-rule-no">{index + 1}</span>
                  <Form.Item
                    name={[field.name, 'keyword']}
                    label="关键词"
                    rules={[
                      { required: true, whitespace: true, message: '请填写关键词' },
                      { max: 50, message: '关键词最多50个字符' },
                    ]}
                  >
                    <Input placeholder="如：积分" />
                  </Form.Item>
                  <Form.Item name={[field.name, 'match']} label="匹配方式">
                    <Select options={MATCH_OPTIONS} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'reply']}
                    label="回复"
                    className="wx-bot-rule-reply"
                    rules={[
                      { required: true, whitespace: true, message: '请填写回复内容' },
                      { max: 1000, message: '回复内容最多1000个字符' },
                    ]}
                  >
                    <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} placeholder="自动回复的内容" />
                  </Form.Item>
                  <Button
                    aria-label={`删除规则 ${index + 1}`}
                    icon={<DeleteOutlined />}
                    onClick={() => remove(field.name)}
                    type="text"
                    danger
                  />
                </fieldset>
              ))}
              <Button
                icon={<PlusOutlined />}
                onClick={() => add({ keyword: '', reply: '', match: 'contains' })}
              >
                添加规则
              </Button>
              <Form.ErrorList errors={errors} />
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

function TestBox({ bot, onClose }: { bot: BotRow; onClose(): void }) {
  const { http } = useServices();
  const [message, setMessage] = useState('');
  const [answer, setAnswer] = useState<ChatBotReply | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    if (message.trim() === '') {
      setError('请输入消息');
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const res = await http.request<{ data: ChatBotReply }>(`/api/admin/chatBots/${bot.id}/reply`, {
        method: 'POST',
        body: { message },
        kind: 'query',
      });
      setAnswer(res.data);
    } catch (e) {
      setError(failureText(e));
    } finally {
      setBusy(false);
    }
  };
  const rule = answer?.ruleIndex != null ? bot.rules?.[answer.ruleIndex] : undefined;

  return (
    <Modal title={`测试回复：${bot.name}`} open footer={null} onCancel={onClose} destroyOnHidden>
      <div className="wx-bot-test">
        <Input.Search
          aria-label="测试消息"
          placeholder="输入一条用户消息"
          enterButton="发送"
          value={message}
          maxLength={500}
          loading={busy}
          onChange={(e) => setMessage(e.target.value)}
          onSearch={() => void send()}
          status={error ? 'error' : undefined}
        />
        {error && <div className="wx-bot-test-error">{error}</div>}
        {answer && (
          <div className="wx-bot-test-answer" role="status">
            {answer.reply === null ? (
              <span>没有匹配的规则，机器人不回复</span>
            ) : (
              <>
                <div className="wx-bot-test-reply">{answer.reply}</div>
                <div className="wx-bot-test-rule">
                  匹配规则 {Number(answer.ruleIndex) + 1}：关键词「{rule?.keyword}」
                  {rule?.match === 'exact' ? '（完全一致）' : ''}
                </div>
              </>
            )}
          </div>
        )}
      </div>
    </Modal>
  );
}

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
        <RulesEditor
          bot={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            void reload();
          }}
        />
      )}
      {testing && <TestBox bot={testing} onClose={() => setTesting(null)} />}
    </div>
  );
}

export default function ChatBotScreen() {
  return <RouteTabs route="bbs/wechat" board={<ChatBotBoard />} boardTitle="机器人与测试" />;
}
