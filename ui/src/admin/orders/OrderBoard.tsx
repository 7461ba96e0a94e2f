/**
 * 订单 (OMS/order): the store's order board, as a merchant back office has it (美团/饿了么 商家后台).
 * Status tabs with the counts of orders in progress, the orders of the tab (store and keyword
 * filters, newest first), one quick button per row for the next step, a detail drawer with every
 * step the machine allows, 新建订单 for counter orders, and the refunds list. New orders arrive
 * over /ws (`orders`): the 待接单 badge, a chime once the page has been clicked (the browser's
 * autoplay rule) and a notification; the board then refreshes, debounced — never once per message.
 * Without pushes it polls. The view (tab, store, keyword, page, open order) is in the URL.
 */
import {
  BellOutlined,
  MutedOutlined,
  PlusOutlined,
  ReloadOutlined,
  SearchOutlined,
  SoundOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { can, fieldText, formatDateTime, formatMoney, type Relations } from '@wanxiang/core';
import { App, Button, Select, Space, Table, type TableProps, Tag, Tooltip } from 'antd';
// The plain input alone: antd's Input index brings TextArea, Password, Search and OTP along.
import Input from 'antd/es/input/Input';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { usePreference } from '../../preferences/PreferencesContext';
import { useServices, useSession } from '../../session/services-context';
import { useScreenSearch } from '../tabs/screen-location';
import { armSound, chime, soundReady } from './beep';
import { BOARD_TABS, NEW_TAB, statusFilter, tabOf } from './board-tabs';
import { debounce } from './debounce';
import { useOrderCommands } from './OrderCommands';
import { type CounterCustomer, type OrderRow, orderApi, type StoreRow } from './order-api';
import type { OrderNews } from './order-feed';
import { moveLabel, quickMove } from './order-moves';
import { FulfilmentTag, StatusTag } from './order-tags';
import { useOrderNews } from './use-order-feed';
import './orders.css';
import { definitionField } from '../../resources/definitions';

const CounterOrder = lazy(() => import('./CounterOrder'));
const OrderDrawer = lazy(() => import('./OrderDrawer'));
const RefundsTab = lazy(() => import('./RefundsTab'));

const ITEMS = () => definitionField('orders', 'items');
const PAGE_SIZE = 20;
/** After a burst of news, refresh once this long after the last one (and at least every 4 s). */
export const REFRESH_DEBOUNCE_MS = 1000;
/** Without pushes, the board asks this often. */
export const POLL_MS = 30_000;
const REFUNDS_TAB = 'refunds';
const SOUND_KEY = 'orders:sound';
const NO_PERMISSIONS: readonly string[] = [];

const readBoolean = (v: unknown) => (typeof v === 'boolean' ? v : undefined);

interface View {
  tab: string;
  storeId: number | null;
  q: string;
  page: number;
  order: number | null;
}

function readView(search: string): View {
  const p = new URLSearchParams(search);
  const int = (key: string) => {
    const n = Number(p.get(key));
    return Number.isInteger(n) && n > 0 ? n : null;
  };
  return {
    tab: p.get('tab') ?? 'all',
    storeId: int('store'),
    q: p.get('q') ?? '',
    page: int('page') ?? 1,
    order: int('order'),
  };
}

function writeView(view: View): string {
  const p = new URLSearchParams();
  if (view.tab !== 'all') p.set('tab', view.tab);
  if (view.storeId) p.set('store', String(view.storeId));
  if (view.q) p.set('q', view.q);
  if (view.page > 1) p.set('page', String(view.page));
  if (view.order) p.set('order', String(view.order));
  const text = p.toString();
  return text ? `?${text}` : '';
}

interface ListState {
  rows: OrderRow[];
  total: number;
  relations: Relations;
  loading: boolean;
  error: boolean;
}

export default function OrderBoard() {
  const { http } = useServices();
  const { notification } = App.useApp();
  const api = useMemo(() => orderApi(http), [http]);
  const permissions = useSession((s) => s.context.user?.permissions ?? NO_PERMISSIONS);
  const writable = can(permissions, 'oms', 'write');
  const [search, setSearch] = useScreenSearch();
  const view = readView(search);
  // The latest view, for what runs later (timers, pushes, a notification's button).
  const viewRef = useRef(view);
  viewRef.current = view;
  const go = (change: Partial<View>) => setSearch(writeView({ ...viewRef.current, ...change }));

  const [stores, setStores] = useState<StoreRow[]>([]);
  const [counts, setCounts] = useState<Record<string, number | null>>({});
  const [list, setList] = useState<ListState>({
    rows: [],
    total: 0,
    relations: {},
    loading: true,
    error: false,
  });
  const [drawerVersion, setDrawerVersion] = useState(0);
  const [counter, setCounter] = useState(false);
  const [keyword, setKeyword] = useState(view.q);
  // Orders that arrived over /ws since the board opened (marked 新 until opened).
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  // Orders this page just changed: their news is not news to this user.
  const acted = useRef(new Map<number, number>());

  const [soundOn = true, setSoundOn] = usePreference(SOUND_KEY, readBoolean);
  const [soundUnlocked, setSoundUnlocked] = useState(soundReady);
  useEffect(() => armSound(() => setSoundUnlocked(true)), []);

  useEffect(() => {
    api.stores().then(setStores, () => setStores([]));
  }, [api]);

  const storeKey = view.storeId ?? 0;
  const tab = tabOf(view.tab);

  const loadCounts = useCallback(async () => {
    const store = viewRef.current.storeId ? { storeId: viewRef.current.storeId } : {};
    const counted = BOARD_TABS.filter((t) => t.counted);
    const [tabs, refunds] = await Promise.all([
      Promise.all(counted.map((t) => api.count({ ...store, ...statusFilter(t) }))),
      api.pendingRefunds(),
    ]);
    setCounts({
      ...Object.fromEntries(counted.map((t, i) => [t.key, tabs[i] ?? null])),
      [REFUNDS_TAB]: refunds,
    });
  }, [api]);

  const listSeq = useRef(0);
  const loadList = useCallback(async () => {
    const v = viewRef.current;
    if (v.tab === REFUNDS_TAB) return;
    const mine = ++listSeq.current;
    setList((l) => ({ ...l, loading: true }));
    const result = await api.list({
      page: v.page,
      limit: PAGE_SIZE,
      sort: '-createdAt',
      ...(v.q ? { q: v.q } : {}),
      filters: { ...(v.storeId ? { storeId: v.storeId } : {}), ...statusFilter(tabOf(v.tab)) },
    });
    if (mine !== listSeq.current) return;
    setList({
      rows: result.list,
      total: result.count,
      relations: result.relations,
      loading: false,
      error: !result.success,
    });
  }, [api]);

  const refresh = useCallback(() => {
    void loadCounts();
    void loadList();
  }, [loadCounts, loadList]);

  // The view changed: its rows (and, for another store, its counts).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the keys say when to reload; loadList reads the view itself
  useEffect(() => {
    void loadList();
  }, [loadList, view.tab, storeKey, view.q, view.page]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  useEffect(() => {
    void loadCounts();
  }, [loadCounts, storeKey]);

  const refreshSoon = useMemo(() => debounce(refresh, REFRESH_DEBOUNCE_MS), [refresh]);
  useEffect(() => () => refreshSoon.cancel(), [refreshSoon]);

  const openOrder = (id: number) => {
    setFresh((f) => {
      if (!f.has(id)) return f;
      const next = new Set(f);
      next.delete(id);
      return next;
    });
    go({ order: id });
  };

  const onNews = (news: OrderNews) => {
    const v = viewRef.current;
    if (v.storeId && news.order.storeId !== undefined && news.order.storeId !== v.storeId) return;
    refreshSoon();
    if (news.order.id === v.order) setDrawerVersion((n) => n + 1);
    const mine = (acted.current.get(news.order.id) ?? 0) > Date.now() - 10_000;
    // A new order to take: it has just been paid (a counter order, or one from the mini program).
    if (news.type === 'status' && news.order.status === 'paid' && !mine) {
      setFresh((f) => new Set(f).add(news.order.id));
      if (soundOn) chime();
      notification.info({
        key: `order-${news.order.id}`,
        title: '新订单',
        description: `订单 ${news.order.orderNo} 已支付，请及时接单`,
        icon: <BellOutlined style={{ color: '#fa541c' }} />,
        placement: 'bottomRight',
        duration: 8,
        actions: (
          <Button
            type="primary"
            size="small"
            onClick={() => {
              notification.destroy(`order-${news.order.id}`);
              go({ tab: NEW_TAB, page: 1, order: news.order.id });
            }}
          >
            查看
          </Button>
        ),
      });
    }
  };
  const live = useOrderNews(onNews);

  useEffect(() => {
    if (live) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === 'visible') refresh();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [live, refresh]);

  const commands = useOrderCommands(api, (order) => {
    acted.current.set(order.id, Date.now());
    setDrawerVersion((n) => n + 1);
    refresh();
  });

  const onCreated = (order: OrderRow, customer: CounterCustomer | null) => {
    acted.current.set(order.id, Date.now());
    setCounter(false);
    refresh();
    go({ order: order.id });
    // The counter takes the money next (收款), as a cashier does.
    commands.start(order, 'pay', { customer });
  };

  const columns: TableProps<OrderRow>['columns'] = [
    {
      key: 'orderNo',
      title: '订单号 / 下单时间',
      render: (_, o) => (
        <div className="wx-order-no-cell">
          <Space size={4}>
            <Button type="link" size="small" className="wx-order-no" onClick={() => openOrder(o.id)}>
              {o.orderNo}
            </Button>
            {fresh.has(o.id) && <Tag color="red">新</Tag>}
          </Space>
          <div className="wx-order-muted">{formatDateTime(o.createdAt)}</div>
        </div>
      ),
    },
    // A board of one store need not say which store every row is from.
    ...(view.storeId
      ? []
      : [
          {
            key: 'store',
            title: '门店',
            render: (_: unknown, o: OrderRow) =>
              list.relations.storeId?.[String(o.storeId)] ?? `#${o.storeId}`,
          },
        ]),
    {
      key: 'user',
      title: '顾客',
      render: (_, o) =>
        o.userId == null ? (
          <span className="wx-order-muted">散客</span>
        ) : (
          (list.relations.userId?.[String(o.userId)] ?? `#${o.userId}`)
        ),
    },
    {
      key: 'items',
      title: '商品',
      render: (_, o) => {
        const text = fieldText(ITEMS(), o.items);
        return (
          <span className="wx-order-items" title={fieldText(ITEMS(), o.items, { multiline: true })}>
            {text}
          </span>
        );
      },
    },
    {
      key: 'amount',
      title: '金额',
      align: 'right',
      render: (_, o) => <span className="wx-order-amount">{formatMoney(o.payableFen)}</span>,
    },
    { key: 'fulfilment', title: '履约', render: (_, o) => <FulfilmentTag value={o.fulfilment} /> },
    { key: 'status', title: '状态', render: (_, o) => <StatusTag status={o.status} /> },
    {
      key: 'actions',
      title: '操作',
      fixed: 'end',
      render: (_, o) => {
        const next = writable ? quickMove(o) : undefined;
        return (
          <div className="wx-row-actions">
            {next && (
              <Button
                type="primary"
                size="small"
                loading={commands.busy === o.id}
                onClick={() => commands.start(o, next.name)}
              >
                {moveLabel(next)}
              </Button>
            )}
            <Button type="link" size="small" onClick={() => openOrder(o.id)}>
              详情
            </Button>
          </div>
        );
      },
    },
  ];

  const tabs = [
    ...BOARD_TABS.map((t) => ({ key: t.key, label: t.label, counted: t.counted })),
    { key: REFUNDS_TAB, label: '退款/售后', counted: true },
  ];
  const tabCount = (key: string) => {
    const n = counts[key];
    // The tabs that need the store's attention (new orders, refund requests) get a red badge.
    if (key === NEW_TAB || key === REFUNDS_TAB)
      return n ? <span className="wx-order-tab-badge">{n > 99 ? '99+' : n}</span> : null;
    return <span className="wx-order-tab-count">{n ?? '-'}</span>;
  };

  const storeOptions = [
    { value: 0, label: '全部门店' },
    ...stores.map((s) => ({
      value: s.id,
      label:
        s.status === 'open'
          ? s.name
          : `${s.name}（${fieldText(definitionField('stores', 'status'), s.status)}）`,
    })),
  ];

  return (
    <section className="wx-order-board">
      <div className="wx-order-toolbar">
        <Space wrap size={12}>
          <h2 className="wx-order-title">订单</h2>
          <Select
            aria-label="门店"
            className="wx-order-store"
            value={view.storeId ?? 0}
            options={storeOptions}
            onChange={(v) => go({ storeId: v || null, page: 1 })}
            showSearch={{ optionFilterProp: 'label' }}
          />
          <Space.Compact className="wx-order-search">
            <Input
              aria-label="搜索订单"
              placeholder="订单号 / 收货地址"
              allowClear
              value={keyword}
              onChange={(e) => setKeyword(e.target.value)}
              onPressEnter={() => go({ q: keyword.trim(), page: 1 })}
            />
            <Button
              icon={<SearchOutlined />}
              aria-label="搜索"
              onClick={() => go({ q: keyword.trim(), page: 1 })}
            />
          </Space.Compact>
        </Space>
        <Space wrap size={12}>
          <Tooltip title={live ? '新订单实时推送中' : `推送未连接，每 ${POLL_MS / 1000} 秒刷新`}>
            <span className={live ? 'wx-order-live wx-order-live-on' : 'wx-order-live'}>
              <WifiOutlined /> {live ? '实时' : '轮询'}
            </span>
          </Tooltip>
          <Tooltip title={soundOn && !soundUnlocked ? '浏览器要求先点击页面，之后新订单才能响铃' : undefined}>
            <Button
              type="text"
              size="small"
              className={soundOn ? 'wx-order-sound wx-order-sound-on' : 'wx-order-sound'}
              icon={soundOn ? <SoundOutlined /> : <MutedOutlined />}
              aria-pressed={soundOn}
              onClick={() => setSoundOn(!soundOn)}
            >
              {soundOn ? (soundUnlocked ? '提示音开' : '提示音开（点击页面后生效）') : '提示音关'}
            </Button>
          </Tooltip>
          <Tooltip title="刷新">
            <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={refresh} />
          </Tooltip>
          {writable && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCounter(true)}>
              新建订单
            </Button>
          )}
        </Space>
      </div>

      <div className="wx-order-panel">
        {/* Buttons, not antd's Tabs: the board's first paint stays light (QUALITY.md). */}
        <div className="wx-order-tabs" role="tablist" aria-label="订单状态">
          {tabs.map((t) => (
            <button
              key={t.key}
              type="button"
              role="tab"
              aria-selected={t.key === view.tab}
              className={t.key === view.tab ? 'wx-order-tab wx-order-tab-active' : 'wx-order-tab'}
              onClick={() => go({ tab: t.key, page: 1 })}
            >
              {t.label}
              {t.counted && tabCount(t.key)}
            </button>
          ))}
        </div>
        {view.tab === REFUNDS_TAB ? (
          <Suspense fallback={null}>
            <RefundsTab />
          </Suspense>
        ) : (
          <Table<OrderRow>
            rowKey="id"
            size="middle"
            className="wx-order-table"
            columns={columns}
            dataSource={list.rows}
            loading={list.loading}
            scroll={{ x: 'max-content' }}
            rowClassName={(o) => (fresh.has(o.id) ? 'wx-order-row-fresh' : '')}
            onRow={(o) => ({ onDoubleClick: () => openOrder(o.id) })}
            locale={{
              emptyText: list.error ? (
                <div className="wx-order-empty">
                  订单加载失败 <Button onClick={refresh}>重试</Button>
                </div>
              ) : list.loading ? (
                ' '
              ) : (
                <div className="wx-order-empty">
                  {view.q ? '没有符合条件的订单' : `暂无${tab.key === 'all' ? '' : tab.label}订单`}
                </div>
              ),
            }}
            pagination={{
              current: view.page,
              pageSize: PAGE_SIZE,
              total: list.total,
              showSizeChanger: false,
              showTotal: (total) => `共 ${total} 单`,
              onChange: (page) => go({ page }),
            }}
          />
        )}
      </div>

      {view.order && (
        <Suspense fallback={null}>
          <OrderDrawer
            api={api}
            orderId={view.order}
            version={drawerVersion}
            commands={commands}
            writable={writable}
            onClose={() => go({ order: null })}
          />
        </Suspense>
      )}
      {counter && (
        <Suspense fallback={null}>
          <CounterOrder
            api={api}
            stores={stores}
            defaultStoreId={view.storeId}
            onClose={() => setCounter(false)}
            onCreated={onCreated}
          />
        </Suspense>
      )}
      {commands.dialogs}
    </section>
  );
}
