/**
 * A chat bot's name, switch and keyword rules (关键词, 匹配方式, 回复) as a form list instead of the
 * generic JSON text. Its own lazy chunk: antd Form is needed only when the editor opens.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { createResourceClient } from '@wanxiang/core';
import { Button, Form, Input, Modal, Select, Switch } from 'antd';
import { useMemo, useState } from 'react';
import { definition } from '../../resources/definitions';
import { useServices } from '../../session/services-context';
import type { BotForm, BotRow, Rule } from './chat-bot';
import './review.css';

const MATCH_OPTIONS = [
  { value: 'contains', label: '包含关键词' },
  { value: 'exact', label: '完全一致' },
];

export default function RulesEditor({
  bot,
  onClose,
  onSaved,
}: {
  bot: BotRow | null;
  onClose(): void;
  onSaved(): void;
}) {
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
