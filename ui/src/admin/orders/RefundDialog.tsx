/**
 * 退款: the whole remainder (整单退), an amount (按金额), or units of lines (按商品). What it comes to
 * is core's `planRefund` over the order as loaded — the same function the server applies — so the
 * amount shown is the amount refunded (a line's units return their exact share of every discount).
 */
import { formatMoney, type RefundRequest, yuanToFen } from '@wanxiang/core';
import { Alert, Form, Input, InputNumber, Modal, Segmented, Table } from 'antd';
import { useMemo, useState } from 'react';
import { DIALOG_Z_INDEX, type DialogProps, showFailure } from './MoveDialogs';
import type { OrderLine } from './order-api';
import { planOf } from './order-moves';

type Mode = 'full' | 'amount' | 'lines';

const MODES: { value: Mode; label: string }[] = [
  { value: 'full', label: '整单退' },
  { value: 'amount', label: '按金额' },
  { value: 'lines', label: '按商品' },
];

export default function RefundDialog({ order, run, onClose, report }: DialogProps) {
  const [form] = Form.useForm<{ reason: string }>();
  const [mode, setMode] = useState<Mode>('full');
  const [amount, setAmount] = useState<string | null>(null);
  const [qty, setQty] = useState<Record<number, number>>({});
  const [running, setRunning] = useState(false);
  const left = order.paidFen - order.refundedFen;

  const request: RefundRequest | null = useMemo(() => {
    if (mode === 'full') return {};
    if (mode === 'amount') {
      const fen = amount === null || amount === '' ? null : yuanToFen(amount);
      return fen === null ? null : { amountFen: fen };
    }
    const lines = Object.entries(qty)
      .filter(([, n]) => n > 0)
      .map(([index, n]) => ({ index: Number(index), qty: n }));
    return { lines };
  }, [mode, amount, qty]);
  const plan = request ? planOf(order, request) : null;

  const submit = async ({ reason }: { reason: string }) => {
    if (!request || !plan?.ok) return;
    setRunning(true);
    try {
      await run(order, 'refund', { reason: reason.trim(), ...request });
      onClose();
    } catch (error) {
      showFailure(form, ['reason'], error, report);
    } finally {
      setRunning(false);
    }
  };

  const lineRows = order.items.map((line, index) => ({ ...line, index }));
  return (
    <Modal
      open
      zIndex={DIALOG_Z_INDEX}
      title={`退款：${order.orderNo}`}
      width={720}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={plan?.ok ? `确认退款 ${formatMoney(plan.amountFen)}` : '确认退款'}
      okButtonProps={{ danger: true, disabled: !plan?.ok }}
      cancelText="取消"
      confirmLoading={running}
      styles={{ body: { maxHeight: '65vh', overflowY: 'auto' } }}
    >
      <p className="wx-order-dialog-note">
        实付 {formatMoney(order.paidFen)}，已退 {formatMoney(order.refundedFen)}，可退 {formatMoney(left)}
        {order.pointsUsed > order.pointsRefunded
          ? `，可退积分 ${order.pointsUsed - order.pointsRefunded}`
          : ''}
        。款项原路退回。
      </p>
      <Segmented<Mode> options={MODES} value={mode} onChange={setMode} className="wx-order-refund-modes" />
      {mode === 'amount' && (
        <div className="wx-order-refund-amount">
          <InputNumber<string>
            stringMode
            min="0.01"
            step="1"
            precision={2}
            prefix="¥"
            value={amount}
            onChange={(v) => setAmount(v)}
            placeholder={`最多 ${(left / 100).toFixed(2)}`}
            style={{ width: 200 }}
            aria-label="退款金额"
          />
        </div>
      )}
      {mode === 'lines' && (
        <Table<OrderLine & { index: number }>
          className="wx-order-refund-lines"
          size="small"
          rowKey="index"
          pagination={false}
          dataSource={lineRows}
          columns={[
            { key: 'name', title: '商品', render: (_, l) => (l.sku ? `${l.name}（${l.sku}）` : l.name) },
            { key: 'qty', title: '数量', dataIndex: 'qty', align: 'right', width: 64 },
            {
              key: 'paid',
              title: '实付',
              align: 'right',
              width: 96,
              render: (_, l) => (l.payableFen === undefined ? '-' : formatMoney(l.payableFen)),
            },
            {
              key: 'refunded',
              title: '已退',
              align: 'right',
              width: 64,
              render: (_, l) => l.refundedQty ?? 0,
            },
            {
              key: 'refund',
              title: '本次退',
              width: 120,
              render: (_, l) => {
                const max = l.qty - (l.refundedQty ?? 0);
                return (
                  <InputNumber
                    size="small"
                    min={0}
                    max={max}
                    precision={0}
                    disabled={max === 0}
                    value={qty[l.index] ?? 0}
                    onChange={(v) => setQty((q) => ({ ...q, [l.index]: Number(v ?? 0) }))}
                    aria-label={`退 ${l.name} 件数`}
                  />
                );
              },
            },
          ]}
        />
      )}
      <div className="wx-order-refund-plan" aria-live="polite">
        {plan === null ? (
          <span className="wx-order-muted">请输入退款金额</span>
        ) : plan.ok ? (
          <>
            退款金额 <strong className="wx-order-refund-figure">{formatMoney(plan.amountFen)}</strong>
            {plan.points > 0 && <span>，退还 {plan.points} 积分</span>}
            <span className="wx-order-muted">（{plan.kind === 'full' ? '全部退完' : '部分退款'}）</span>
          </>
        ) : (
          <Alert type="warning" showIcon title={plan.message} />
        )}
      </div>
      <Form form={form} layout="vertical" onFinish={submit} name="order-refund">
        <Form.Item
          name="reason"
          label="退款原因"
          rules={[
            { required: true, whitespace: true, message: '请填写退款原因' },
            { max: 200, message: '原因最多200个字符' },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 4 }}
            maxLength={200}
            showCount
            placeholder="如：少送一份、餐品洒漏"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
