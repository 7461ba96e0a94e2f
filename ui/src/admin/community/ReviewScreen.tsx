/**
 * bbs/review (custom screen): the moderation queue — pending topics and replies together, newest
 * first, each with its author, the words the filter found highlighted in the text as written
 * (core's filter run here over the row's flaggedWords, so 加 微 信 is marked where it stands),
 * and 通过 / 驳回 (a reason is required). The registry lists of the route follow as tabs: the
 * pending topics and replies with every generic feature, and the word list (敏感词, 批量导入).
 */
import {
  createResourceClient,
  highlightSegments,
  type Relations,
  type Row,
  SensitiveWordFilter,
} from '@wanxiang/core';
import { App, Button, Empty, Form, Input, Modal, Skeleton, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { timeText } from '../../monitor/format';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import './review.css';
import { definition } from '../../resources/definitions';

const PAGE = 50;
type Kind = 'bbsTopics' | 'bbsPosts';
const KIND_LABEL: Record<Kind, string> = { bbsTopics: '帖子', bbsPosts: '回帖' };
const STATUS_TAG: Record<string, [string, string]> = {
  pending: ['待审核', 'orange'],
  published: ['已发布', 'green'],
  rejected: ['已驳回', 'red'],
};

interface Item {
  kind: Kind;
  row: Row;
  author: string;
}

function Highlighted({ text, words }: { text: string; words: readonly string[] }) {
  const segments = useMemo(() => {
    if (words.length === 0) return [{ text, words: [] as string[] }];
    return highlightSegments(text, new SensitiveWordFilter([...words]).find(text));
  }, [text, words]);
  return (
    <>
      {segments.map((s, i) =>
        s.words.length > 0 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
          <mark key={i} className="wx-review-hit" title={`敏感词：${s.words.join('、')}`}>
            {s.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: segments are positional and never reorder
          <span key={i}>{s.text}</span>
        ),
      )}
    </>
  );
}

function ReviewBoard() {
  const { http } = useServices();
  const { message } = App.useApp();
  const clients = useMemo(
    () => ({
      bbsTopics: createResourceClient(http, definition('bbsTopics')),
      bbsPosts: createResourceClient(http, definition('bbsPosts')),
    }),
    [http],
  );
  const [items, setItems] = useState<Item[]>([]);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Item | null>(null);
  const [form] = Form.useForm<{ reason: string }>();

  const reload = useCallback(async () => {
    setLoading(true);
    const kinds: Kind[] = ['bbsTopics', 'bbsPosts'];
    const answers = await Promise.all(
      kinds.map((k) => clients[k].list({ limit: PAGE, filters: { status: 'pending' }, sort: '-createdAt' })),
    );
    setLoading(false);
    const failed = answers.find((a) => !a.success);
    if (failed) {
      message.error(failureText(failed.error));
      return;
    }
    const authorOf = (relations: Relations, row: Row) =>
      relations.authorId?.[String(row.authorId)] ?? `#${String(row.authorId)}`;
    const merged = answers.flatMap((a, i) =>
      a.list.map((row) => ({ kind: kinds[i] as Kind, row, author: authorOf(a.relations, row) })),
    );
    merged.sort((a, b) => Date.parse(b.row.createdAt) - Date.parse(a.row.createdAt));
    setItems(merged);
  }, [clients, message]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const keyOf = (item: Item) => `${item.kind}:${item.row.id}`;
  const decide = async (item: Item, action: 'approve' | 'reject', input?: Record<string, unknown>) => {
    setBusy(keyOf(item));
    try {
      const row = await clients[item.kind].action(item.row.id, action, input);
      setItems((prev) =>
        prev.map((it) => (keyOf(it) === keyOf(item) ? { ...it, row: { ...it.row, ...row } } : it)),
      );
      // The HTTP client shows the answer's message (通过成功 / 驳回成功).
      return true;
    } catch {
      // The HTTP client has told the user why.
      return false;
    } finally {
      setBusy(null);
    }
  };

  const submitReject = async () => {
    if (!rejecting) return;
    const { reason } = await form.validateFields();
    if (await decide(rejecting, 'reject', { reason: reason.trim() })) {
      setRejecting(null);
      form.resetFields();
    }
  };

  if (loading && items.length === 0) return <Skeleton active />;
  return (
    <div className="wx-review-board">
      <div className="wx-review-bar">
        <span>
          待审核 <b>{items.filter((i) => i.row.status === 'pending').length}</b> 条（帖子与回帖）
        </span>
        <Button onClick={() => void reload()} loading={loading}>
          刷新
        </Button>
      </div>
      {items.length === 0 ? (
        <Empty description="没有待审核的内容" />
      ) : (
        <ul className="wx-review-list" aria-label="待审核内容">
          {items.map((item) => {
            const { row } = item;
            const words = Array.isArray(row.flaggedWords) ? (row.flaggedWords as string[]) : [];
            const [statusText, statusColor] = STATUS_TAG[String(row.status)] ?? [
              String(row.status),
              'default',
            ];
            const pending = row.status === 'pending';
            return (
              <li
                key={keyOf(item)}
                className="wx-review-item"
                aria-label={`${KIND_LABEL[item.kind]} #${row.id}`}
              >
                <div className="wx-review-head">
                  <Tag>{KIND_LABEL[item.kind]}</Tag>
                  {typeof row.title === 'string' && <b className="wx-review-title">{row.title}</b>}
                  <Tag color={statusColor}>{statusText}</Tag>
                  <span className="wx-review-meta">
                    作者 {item.author} · {timeText(row.createdAt)}
                  </span>
                </div>
                {words.length > 0 && (
                  <div className="wx-review-words">
                    命中敏感词：
                    {words.map((w) => (
                      <Tag key={w} color="red">
                        {w}
                      </Tag>
                    ))}
                  </div>
                )}
                <div className="wx-review-content">
                  <Highlighted text={String(row.content ?? '')} words={words} />
                </div>
                {row.status === 'rejected' && typeof row.rejectReason === 'string' && (
                  <div className="wx-review-reason">驳回原因：{row.rejectReason}</div>
                )}
                <div className="wx-review-actions">
                  <Button
                    type="primary"
                    disabled={!pending}
                    loading={busy === keyOf(item)}
                    onClick={() => void decide(item, 'approve')}
                  >
                    通过
                  </Button>
                  <Button danger disabled={!pending} onClick={() => setRejecting(item)}>
                    驳回
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Modal
        title={rejecting ? `驳回${KIND_LABEL[rejecting.kind]} #${rejecting.row.id}` : '驳回'}
        open={rejecting !== null}
        okText="驳回"
        okButtonProps={{ danger: true, loading: busy !== null }}
        cancelText="取消"
        onOk={() => void submitReject().catch(() => {})}
        onCancel={() => {
          setRejecting(null);
          form.resetFields();
        }}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item
            name="reason"
            label="驳回原因"
            rules={[
              { required: true, whitespace: true, message: '请填写驳回原因' },
              { max: 200, message: '驳回原因不能超过 200 个字' },
            ]}
          >
            <Input.TextArea rows={3} placeholder="作者会看到这条原因" maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </div>
  );
}

export default function ReviewScreen() {
  return <RouteTabs route="bbs/review" board={<ReviewBoard />} boardTitle="待审核内容" />;
}
