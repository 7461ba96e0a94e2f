/**
 * api-market/order (custom screen): the API orders with 购买套餐 — a user and a plan; the dialog
 * shows the price, the user's balance and, when it falls short, core's 余额不足 words before the
 * click (the server refuses the same, 409, changing nothing) — and 退款 with a confirmation
 * (pro rata of the unused calls, core's rule). The quotas list follows as a tab; the generic
 * orders list is left out, this board being it.
 */
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { createResourceClient, formatMoney, type Row } from '@wanxiang/core';
import { App, Button, Space, Table, Tag } from 'antd';
import { lazy, Suspense, useMemo, useState } from 'react';
import { timeText } from '../../monitor/format';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import { SearchBox } from '../monitor/SearchBox';
import '../monitor/boards.css';
import './api-market.css';
import { definition } from '../../resources/definitions';
import { useBoardList } from '../use-board-list';

// 购买套餐 (antd Form, the plan and balance figures) loads when first opened: the board shows without it.
const BuyDialog = lazy(() => import('./BuyDialog'));

const PAGE = 20;
// Read when rendered: the definitions load with the screen (admin/custom-screens.ts).
const apiOrders = () => definition('apiOrders');
const statusOptions = () => {
  const field = apiOrders().fields.status;
  return field?.type === 'enum' ? field.options : [];
};
const refundConfirm = () => apiOrders().actions?.find((a) => a.name === 'refund')?.confirm ?? '确定退款？';

interface OrderRow extends Row {
  orderNo: string;
  userId: number;
  planId: number;
  amountFen: number;
  calls: number;
  status: string;
  paidAt: string | null;
  refundedFen: number | null;
}

function OrderBoard() {
  const { http } = useServices();
  const { modal } = App.useApp();
  const client = useMemo(() => createResourceClient<OrderRow>(http, apiOrders()), [http]);
  const { page, setPage, search, rows, relations, total, loading, reload } = useBoardList(client, PAGE);
  const [buying, setBuying] = useState(false);
  // Mounted from the first 购买套餐 on, so closing keeps the Modal's animation.
  const [buyOpened, setBuyOpened] = useState(false);

  const refund = (row: OrderRow) =>
    modal.confirm({
      title: `退款：订单 ${row.orderNo}`,
      content: refundConfirm(),
      okText: '退款',
      okButtonProps: { danger: true },
      onOk: async () => {
        // The server's answer says 已退款 ¥… (the HTTP client shows it).
        await client.action(row.id, 'refund');
        void reload();
      },
    });

  return (
    <div className="wx-monitor-board">
      <div className="wx-monitor-toolbar">
        <SearchBox placeholder="订单号" onSearch={search} />
        <Space>
          <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
            刷新
          </Button>
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => {
              setBuyOpened(true);
              setBuying(true);
            }}
          >
            购买套餐
          </Button>
        </Space>
      </div>
      <Table<OrderRow>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 1000 }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: '暂无订单' }}
        columns={[
          { title: '订单号', dataIndex: 'orderNo', width: 220 },
          {
            title: '用户',
            dataIndex: 'userId',
            render: (id: number) => relations.userId?.[String(id)] ?? `#${id}`,
          },
          {
            title: '套餐',
            dataIndex: 'planId',
            render: (id: number) => relations.planId?.[String(id)] ?? `#${id}`,
          },
          { title: '次数', dataIndex: 'calls', width: 100 },
          { title: '金额', dataIndex: 'amountFen', width: 110, render: (fen: number) => formatMoney(fen) },
          {
            title: '状态',
            dataIndex: 'status',
            width: 110,
            render: (s: string, row) => {
              const option = statusOptions().find((o) => o.value === s);
              return (
                <Space size={4}>
                  <Tag color={option?.color}>{option?.label ?? s}</Tag>
                  {s === 'refunded' && <span>{formatMoney(Number(row.refundedFen ?? 0))}</span>}
                </Space>
              );
            },
          },
          { title: '支付时间', dataIndex: 'paidAt', width: 170, render: (v) => timeText(v) },
          {
            title: '操作',
            key: 'actions',
            width: 90,
            fixed: 'right',
            render: (_, row) =>
              row.status === 'paid' ? (
                <Button type="link" size="small" danger onClick={() => refund(row)}>
                  退款
                </Button>
              ) : null,
          },
        ]}
      />
      {buyOpened && (
        <Suspense fallback={null}>
          <BuyDialog
            open={buying}
            onClose={() => setBuying(false)}
            onBought={() => {
              setBuying(false);
              void reload();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}

export default function ApiOrderScreen() {
  return (
    <RouteTabs route="api-market/order" boardTitle="购买与退款" board={<OrderBoard />} skip={['apiOrders']} />
  );
}
