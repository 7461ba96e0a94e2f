/**
 * 测试回复: type a message, see the bot's reply and which rule answered (POST
 * /api/admin/chatBots/:id/reply, core's chatBotReply on the server). Loaded when opened.
 */
import type { ChatBotReply } from '@wanxiang/core';
import { Input, Modal } from 'antd';
import { useState } from 'react';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import type { BotRow } from './chat-bot';
import './review.css';

export default function TestBox({ bot, onClose }: { bot: BotRow; onClose(): void }) {
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
