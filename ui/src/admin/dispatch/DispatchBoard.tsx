/**
 * 按订单派单 (runner/dispatch): the deliveries waiting for a runner, each with the runner core
 * ranks first (`rankRunners`: idle, nearest the store, fewest open deliveries) and 派单 to send
 * them in one click; an assigned delivery not yet picked up can be 改派 to another of its
 * candidates. Beside it the runners on duty with their status, open deliveries and today's count.
 * Everything comes from `GET /api/admin/dispatch`; assigning is the deliveries' `assign` action.
 * The screen refreshes on the order news of /ws (debounced), and polls without them.
 */
import { ReloadOutlined, SendOutlined, SwapOutlined, WifiOutlined } from '@ant-design/icons';
import { can, describeFailure, formatDateTime, formatMoney } from '@wanxiang/core';
import { Alert, App, Badge, Button, Empty, Popover, Select, Space, Table, Tag, Tooltip } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { unreportedFailure } from '../../resources/failures';
import { useServices, useSession } from '../../session/services-context';
import { debounce } from '../orders/debounce';
import {
  type DispatchBoard as Board,
  orderApi,
  type StoreRow,
  type WaitingDelivery,
} from '../orders/order-api';
import type { OrderNews } from '../orders/order-feed';
import { statusLabel } from '../orders/order-moves';
import { candidateLabel, distanceText, runnerStatusTag } from '../orders/runner-text';
import { useOrderNews } from '../orders/use-order-feed';
import '../orders/orders.css';
import './dispatch.css';

const POLL_MS = 30_000;
const REFRESH_DEBOUNCE_MS = 1000;
const NO_PERMISSIONS: readonly string[] = [];

/** Minutes since a time, as the dispatcher reads a wait (`3 分钟`). */
function waited(iso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  return minutes < 60 ? `${minutes} 分钟` : `${Math.floor(minutes / 60)} 小时 ${minutes % 60} 分`;
}

export default function DispatchBoard() {
  const { http } = useServices();
  const { message } = App.useApp();
  const api = useMemo(() => orderApi(http), [http]);
  const permissions = useSession((s) => s.context.user?.permissions ?? NO_PERMISSIONS);
  const writable = can(permissions, 'runner', 'write');
  const [stores, setStores] = useState<StoreRow[]>([]);
  const [storeId, setStoreId] = useState<number | null>(null);
  const [board, setBoard] = useState<Board | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const storeRef = useRef(storeId);
  storeRef.current = storeId;

  useEffect(() => {
    api.stores().then(setStores, () => setStores([]));
  }, [api]);

  const seq = useRef(0);
  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const answer = await api.dispatch(storeRef.current);
      if (mine !== seq.current) return;
      setBoard(answer);
      setFailure(null);
    } catch (error) {
      if (mine === seq.current) setFailure(describeFailure(error).message);
    } finally {
      if (mine === seq.current) {
        setLoading(false);
        setNow(Date.now());
      }
    }
  }, [api]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new store filter reloads
  useEffect(() => {
    void load();
  }, [load, storeId]);

  const loadSoon = useMemo(() => debounce(() => void load(), REFRESH_DEBOUNCE_MS), [load]);
  useEffect(() => () => loadSoon.cancel(), [loadSoon]);
  const live = useOrderNews((news: OrderNews) => {
    if (storeRef.current && news.order.storeId !== undefined && news.order.storeId !== storeRef.current)
      return;
    loadSoon();
  });
  useEffect(() => {
    if (live) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [live, load]);
  // The waits shown grow while the screen is open.
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);

  const assign = async (delivery: WaitingDelivery, runnerId: number) => {
    setBusy(delivery.deliveryId);
    try {
      await api.assign(delivery.deliveryId, runnerId);
      await load();
    } catch (error) {
      const text = unreportedFailure(error);
      if (text) message.error(text);
    } finally {
      setBusy(null);
    }
  };

  const runnerName = (id: number | null) =>
    id === null ? null : (board?.runners.find((r) => r.id === id)?.name ?? `#${id}`);
  const waiting = board?.waiting ?? [];
  const unassigned = waiting.filter((w) => w.deliveryStatus === 'waiting').length;

  return (
    <section className="wx-dispatch">
      <div className="wx-order-toolbar">
        <Space wrap size={12}>
          <h2 className="wx-order-title">按订单派单</h2>
          <Select
            aria-label="门店"
            className="wx-order-store"
            value={storeId ?? 0}
            onChange={(v) => setStoreId(v || null)}
            options={[
              { value: 0, label: '全部门店' },
              ...stores.map((s) => ({ value: s.id, label: s.name })),
            ]}
            showSearch={{ optionFilterProp: 'label' }}
          />
          <span className="wx-dispatch-summary">
            待派单 <strong>{unassigned}</strong> · 已派未取 <strong>{waiting.length - unassigned}</strong> ·
            在岗骑手 <strong>{board?.runners.length ?? 0}</strong>
          </span>
        </Space>
        <Space size={12}>
          <Tooltip title={live ? '订单动态实时推送中' : `推送未连接，每 ${POLL_MS / 1000} 秒刷新`}>
            <span className={live ? 'wx-order-live wx-order-live-on' : 'wx-order-live'}>
              <WifiOutlined /> {live ? '实时' : '轮询'}
            </span>
          </Tooltip>
          <Tooltip title="刷新">
            <Button
              icon={<ReloadOutlined />}
              aria-label="刷新"
              loading={loading}
              onClick={() => void load()}
            />
          </Tooltip>
        </Space>
      </div>
      {failure && (
        <Alert
          type="error"
          showIcon
          title="调度数据加载失败"
          description={failure}
          className="wx-dispatch-alert"
        />
      )}

      <div className="wx-dispatch-grid">
        <div className="wx-order-panel">
          <h3 className="wx-dispatch-title">待配送订单</h3>
          <Table<WaitingDelivery>
            rowKey="deliveryId"
            size="middle"
            loading={loading && !board}
            dataSource={waiting}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无待派单的配送" />,
            }}
            columns={[
              {
                key: 'order',
                title: '订单',
                render: (_, w) => (
                  <div>
                    <div className="wx-order-no-text">{w.order.orderNo}</div>
                    <div className="wx-order-muted">
                      {w.order.storeName} · {formatMoney(w.order.payableFen)}
                    </div>
                  </div>
                ),
              },
              {
                key: 'address',
                title: '送至',
                render: (_, w) => <span className="wx-dispatch-address">{w.order.address ?? '-'}</span>,
              },
              {
                key: 'status',
                title: '状态',
                render: (_, w) => (
                  <div>
                    {w.deliveryStatus === 'waiting' ? (
                      <Tag color="orange">待派单</Tag>
                    ) : (
                      <Tag color="blue">已派 · {runnerName(w.runnerId)}</Tag>
                    )}
                    <Tooltip
                      title={`订单${statusLabel(w.order.status)}，${formatDateTime(w.requestedAt)} 发起配送`}
                    >
                      <div className="wx-order-muted">已等 {waited(w.requestedAt, now)}</div>
                    </Tooltip>
                  </div>
                ),
              },
              {
                key: 'suggestion',
                title: '推荐骑手',
                render: (_, w) =>
                  w.suggestion ? (
                    <div className="wx-dispatch-suggestion">
                      <strong>{w.suggestion.name}</strong> {runnerStatusTag(w.suggestion.status)}
                      <div className="wx-order-muted">
                        {distanceText(w.suggestion.distanceM)} · 在途 {w.suggestion.openDeliveries} 单
                      </div>
                    </div>
                  ) : (
                    <span className="wx-order-muted">暂无可派骑手</span>
                  ),
              },
              {
                key: 'actions',
                title: '操作',
                fixed: 'end',
                render: (_, w) => (
                  <Space size={4}>
                    {w.deliveryStatus === 'waiting' && w.suggestion && (
                      <Button
                        type="primary"
                        size="small"
                        icon={<SendOutlined />}
                        disabled={!writable}
                        loading={busy === w.deliveryId}
                        onClick={() => assign(w, (w.suggestion as { id: number }).id)}
                      >
                        派单
                      </Button>
                    )}
                    <Popover
                      trigger="click"
                      title={w.deliveryStatus === 'waiting' ? '选择骑手' : '改派给'}
                      content={
                        <Select<number>
                          aria-label="选择骑手"
                          style={{ width: 320 }}
                          placeholder="选择骑手"
                          options={w.candidates
                            .filter((c) => c.id !== w.runnerId)
                            .map((c) => ({
                              value: c.id,
                              label:
                                c.id === w.suggestion?.id
                                  ? `${candidateLabel(c)}（推荐）`
                                  : candidateLabel(c),
                            }))}
                          notFoundContent="没有其他可派骑手"
                          onChange={(id) => assign(w, id)}
                        />
                      }
                    >
                      <Button
                        size="small"
                        icon={<SwapOutlined />}
                        disabled={!writable || busy === w.deliveryId}
                      >
                        {w.deliveryStatus === 'waiting' ? '指定' : '改派'}
                      </Button>
                    </Popover>
                  </Space>
                ),
              },
            ]}
          />
        </div>

        <div className="wx-order-panel wx-dispatch-runners">
          <h3 className="wx-dispatch-title">在岗骑手</h3>
          {board && board.runners.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无在岗骑手" />
          ) : (
            <ul className="wx-dispatch-runner-list" aria-label="在岗骑手">
              {(board?.runners ?? []).map((r) => (
                <li key={r.id} className="wx-dispatch-runner">
                  <div className="wx-dispatch-runner-head">
                    <Badge
                      status={
                        r.status === 'idle' ? 'success' : r.status === 'delivering' ? 'processing' : 'default'
                      }
                    />
                    <strong>{r.name}</strong>
                    {runnerStatusTag(r.status)}
                  </div>
                  <div className="wx-order-muted">{r.phone}</div>
                  <div className="wx-dispatch-runner-figures">
                    <span>
                      进行中 <strong>{r.openDeliveries}</strong> 单
                    </span>
                    <span>
                      今日 <strong>{r.todayCount}</strong> 单
                    </span>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
    </section>
  );
}
