/**
 * One order in a drawer: who and where, the buttons the machine allows now, its lines as a table,
 * the money breakdown, the timeline (orderHistory, China time) and its refunds. Reloaded when the
 * board says the order changed (an action here, or its news over /ws).
 */
import { PrinterOutlined } from '@ant-design/icons';
import { describeFailure, fieldText, formatDateTime, formatMoney, type Relations } from '@wanxiang/core';
import { Alert, Button, Descriptions, Drawer, Empty, Skeleton, Space, Table, Timeline } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { definitionField } from '../../resources/definitions';
import { SCREEN_DRAWER_STYLE } from '../screen-drawer';
import { useScreenActive } from '../tabs/screen-location';
import type { OrderCommands } from './OrderCommands';
import type { HistoryLine, OrderApi, OrderLine, OrderRow, RefundRow } from './order-api';
import { boardMoves, canRefund, moveLabel, printAction, statusLabel } from './order-moves';
import { EnumTag, FulfilmentTag, PayMethodText, StatusTag } from './order-tags';

const REFUND_ITEMS = () => definitionField('orderRefunds', 'items');
const REFUND_STATUS = () => definitionField('orderRefunds', 'status');

interface Loaded {
  order: OrderRow;
  relations: Relations;
  history: HistoryLine[];
  refunds: RefundRow[];
}

export interface OrderDrawerProps {
  api: OrderApi;
  orderId: number;
  /** Bumped by the board when the order may have changed. */
  version: number;
  commands: OrderCommands;
  writable: boolean;
  onClose(): void;
}

const name = (relations: Relations, field: string, id: number | null | undefined) =>
  id == null ? null : (relations[field]?.[String(id)] ?? `#${id}`);

export default function OrderDrawer({
  api,
  orderId,
  version,
  commands,
  writable,
  onClose,
}: OrderDrawerProps) {
  const shown = useScreenActive();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    // `version` asks for a reload (the order changed); the effect reads it to say so.
    void version;
    Promise.all([api.one(orderId), api.history(orderId), api.refundsOf(orderId)]).then(
      ([one, history, refunds]) => {
        if (!live) return;
        if (!one) {
          setFailure('订单不存在');
          return;
        }
        setFailure(null);
        setLoaded({ ...one, history, refunds });
      },
      (error) => {
        if (live) setFailure(describeFailure(error).message);
      },
    );
    return () => {
      live = false;
    };
  }, [api, orderId, version]);

  const order = loaded?.order.id === orderId ? loaded.order : null;
  return (
    <Drawer
      open={shown}
      size={760}
      onClose={onClose}
      rootStyle={SCREEN_DRAWER_STYLE}
      className="wx-order-drawer"
      title={
        order ? (
          <Space size={12}>
            <span>订单 {order.orderNo}</span>
            <StatusTag status={order.status} />
          </Space>
        ) : (
          '订单详情'
        )
      }
      footer={order && writable ? <DrawerActions order={order} commands={commands} /> : null}
    >
      {failure && !order ? (
        <Alert type="error" showIcon title="订单加载失败" description={failure} />
      ) : !order || !loaded ? (
        <Skeleton active paragraph={{ rows: 10 }} />
      ) : (
        <OrderDetail loaded={{ ...loaded, order }} />
      )}
    </Drawer>
  );
}

function DrawerActions({ order, commands }: { order: OrderRow; commands: OrderCommands }) {
  const moves = boardMoves(order);
  const busy = commands.busy === order.id;
  const print = printAction();
  return (
    <div className="wx-order-actions">
      <Space wrap>
        {moves
          .filter((m) => !m.danger)
          .map((m, i) => (
            <Button
              key={m.name}
              type={i === 0 ? 'primary' : 'default'}
              loading={busy}
              onClick={() => commands.start(order, m.name)}
            >
              {moveLabel(m)}
            </Button>
          ))}
        {print && (
          <Button icon={<PrinterOutlined />} disabled={busy} onClick={() => commands.start(order, 'print')}>
            打印小票
          </Button>
        )}
      </Space>
      <Space wrap>
        {canRefund(order) && (
          <Button danger disabled={busy} onClick={() => commands.start(order, 'refund')}>
            退款
          </Button>
        )}
        {moves
          .filter((m) => m.danger)
          .map((m) => (
            <Button key={m.name} danger disabled={busy} onClick={() => commands.start(order, m.name)}>
              {moveLabel(m)}
            </Button>
          ))}
      </Space>
    </div>
  );
}

function Section({ title, extra, children }: { title: string; extra?: ReactNode; children: ReactNode }) {
  return (
    <section className="wx-order-section">
      <div className="wx-order-section-head">
        <h3>{title}</h3>
        {extra}
      </div>
      {children}
    </section>
  );
}

const lineName = (l: OrderLine) => l.name;

function OrderDetail({ loaded }: { loaded: Loaded }) {
  const { order, relations, history, refunds } = loaded;
  const minus = (fen: number) => (fen > 0 ? `-${formatMoney(fen)}` : formatMoney(0));
  const money: [string, ReactNode][] = [
    ['商品金额', formatMoney(order.goodsFen)],
    ['会员折扣', minus(order.memberFen)],
    ['满减', minus(order.discountFen)],
    ['优惠券', minus(order.couponFen)],
    ['积分抵扣', order.pointsUsed > 0 ? `${minus(order.pointsFen)}（${order.pointsUsed} 积分）` : minus(0)],
    ['打包费', formatMoney(order.packingFen)],
    ['配送费', formatMoney(order.deliveryFen)],
    ['应付', <strong key="payable">{formatMoney(order.payableFen)}</strong>],
    ['实付', formatMoney(order.paidFen)],
    [
      '已退款',
      order.refundedFen > 0 ? (
        <span key="refunded" className="wx-order-refunded">
          {formatMoney(order.refundedFen)}
        </span>
      ) : (
        formatMoney(0)
      ),
    ],
  ];
  return (
    <div className="wx-order-detail">
      {order.status === 'cancelled' && order.cancelReason && (
        <Alert
          type="info"
          showIcon
          title={`订单已取消：${order.cancelReason}`}
          className="wx-order-cancelled"
        />
      )}
      <Descriptions
        size="small"
        column={2}
        className="wx-order-summary"
        items={[
          { key: 'store', label: '门店', children: name(relations, 'storeId', order.storeId) },
          { key: 'user', label: '顾客', children: name(relations, 'userId', order.userId) ?? '散客' },
          { key: 'fulfilment', label: '履约方式', children: <FulfilmentTag value={order.fulfilment} /> },
          {
            key: 'pay',
            label: '支付方式',
            children: <PayMethodText value={order.payMethod} paid={order.paidFen > 0} />,
          },
          { key: 'created', label: '下单时间', children: formatDateTime(order.createdAt) },
          { key: 'runner', label: '骑手', children: name(relations, 'runnerId', order.runnerId) ?? '-' },
          ...(order.address ? [{ key: 'address', label: '收货地址', span: 2, children: order.address }] : []),
          ...(order.remark ? [{ key: 'remark', label: '备注', span: 2, children: order.remark }] : []),
        ]}
      />

      <Section title="商品明细">
        <Table<OrderLine & { index: number }>
          size="small"
          rowKey="index"
          pagination={false}
          className="wx-order-lines"
          dataSource={order.items.map((l, index) => ({ ...l, index }))}
          columns={[
            { key: 'name', title: '商品', render: (_, l) => lineName(l) },
            { key: 'sku', title: '规格', render: (_, l) => l.sku || '-' },
            { key: 'qty', title: '数量', dataIndex: 'qty', align: 'right' },
            { key: 'unit', title: '单价', align: 'right', render: (_, l) => formatMoney(l.unitPriceFen) },
            {
              key: 'discount',
              title: '优惠',
              align: 'right',
              render: (_, l) => (l.discountFen ? `-${formatMoney(l.discountFen)}` : '-'),
            },
            {
              key: 'paid',
              title: '实付',
              align: 'right',
              render: (_, l) => formatMoney(l.payableFen ?? l.unitPriceFen * l.qty),
            },
            {
              key: 'refunded',
              title: '已退',
              align: 'right',
              render: (_, l) =>
                l.refundedQty ? (
                  <span className="wx-order-refunded">{l.refundedQty}</span>
                ) : (
                  <span className="wx-order-muted">0</span>
                ),
            },
          ]}
        />
      </Section>

      <Section title="费用明细">
        <dl className="wx-order-money">
          {money.map(([label, value]) => (
            <div key={label} className={label === '应付' ? 'wx-order-money-total' : undefined}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section title="订单进度">
        {history.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无记录" />
        ) : (
          <Timeline
            className="wx-order-timeline"
            items={history.map((h, i) => {
              const refund = h.from !== null && h.from === h.to;
              const title = refund ? '退款' : h.from === null ? '下单' : statusLabel(h.to);
              return {
                key: i,
                color: refund
                  ? 'red'
                  : h.to === 'cancelled'
                    ? 'gray'
                    : i === history.length - 1
                      ? 'blue'
                      : 'green',
                content: (
                  <div className="wx-order-timeline-line">
                    <strong>{title}</strong>
                    <span className="wx-order-muted">{h.operator ?? '系统'}</span>
                    <span className="wx-order-timeline-at">{formatDateTime(h.at)}</span>
                    {h.note && h.note !== title && <div className="wx-order-timeline-note">{h.note}</div>}
                  </div>
                ),
              };
            })}
          />
        )}
      </Section>

      {refunds.length > 0 && (
        <Section title="退款记录">
          <Table<RefundRow>
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={refunds}
            columns={[
              { key: 'no', title: '退款单号', dataIndex: 'refundNo' },
              { key: 'amount', title: '金额', align: 'right', render: (_, r) => formatMoney(r.amountFen) },
              {
                key: 'items',
                title: '明细',
                render: (_, r) => {
                  const text = fieldText(REFUND_ITEMS(), r.items);
                  // A refund of an amount has no lines.
                  return text === '-' ? (r.kind === 'full' ? '整单退款' : '按金额退款') : text;
                },
              },
              { key: 'reason', title: '原因', dataIndex: 'reason' },
              {
                key: 'status',
                title: '状态',
                render: (_, r) => <EnumTag field={REFUND_STATUS()} value={r.status} />,
              },
              { key: 'at', title: '时间', render: (_, r) => formatDateTime(r.refundedAt ?? r.createdAt) },
            ]}
          />
        </Section>
      )}
    </div>
  );
}
