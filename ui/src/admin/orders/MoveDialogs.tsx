/**
 * The dialogs of the board's moves that need input: a reason (拒单, 取消), the payment (收款: the
 * method, and the customer's prepaid card), the runner (开始配送, the dispatcher's suggestion
 * chosen). Their own chunk: the board's first paint does not carry the form engine.
 */
import {
  COUNTER_PAY_METHODS,
  formatMoney,
  isApiError,
  MEMBER_PAY_METHODS,
  MODAL_WIDTH,
  type OrderMove,
  PAY_METHOD_LABELS,
  type PayMethod,
} from '@wanxiang/core';
import { Form, type FormInstance, Input, Modal, Select, Space, Tag } from 'antd';
import { useEffect, useState } from 'react';
import type { CardRow, CounterCustomer, DispatchCandidate, OrderApi, OrderRow } from './order-api';
import { candidateLabel } from './runner-text';

/**
 * Above the order drawer: a dialog may open together with it (收款 right after 下单, while the
 * drawer's chunk is still arriving and would otherwise be stacked last).
 */
export const DIALOG_Z_INDEX = 1100;

/** The reasons a merchant gives most (美团's 拒单/取消 reasons), one click each. */
const COMMON_REASONS: Record<string, string[]> = {
  reject: ['商品已售完', '门店太忙，暂不接单', '超出配送范围', '顾客要求取消'],
  cancel: ['顾客要求取消', '商品已售完', '无骑手接单', '联系不上顾客'],
};

/** What every dialog of a move gets from the board's commands. */
export interface DialogProps {
  order: OrderRow;
  run(order: OrderRow, action: string, input?: Record<string, unknown>): Promise<void>;
  onClose(): void;
  report(error: unknown): void;
}

/** A failure on the form's fields when the server named them (422), else a message. */
export function showFailure(
  form: Pick<FormInstance, 'setFields'>,
  fields: readonly string[],
  error: unknown,
  report: (error: unknown) => void,
): void {
  const onForm = isApiError(error)
    ? Object.entries(error.fields).filter(([name]) => fields.includes(name))
    : [];
  if (onForm.length > 0) form.setFields(onForm.map(([name, text]) => ({ name, errors: [text] })));
  else report(error);
}

export function ReasonDialog({ order, move, run, onClose, report }: DialogProps & { move: OrderMove }) {
  const [form] = Form.useForm<{ reason: string }>();
  const [running, setRunning] = useState(false);
  const submit = async ({ reason }: { reason: string }) => {
    setRunning(true);
    try {
      await run(order, move.name, { reason: reason.trim() });
      onClose();
    } catch (error) {
      showFailure(form, ['reason'], error, report);
    } finally {
      setRunning(false);
    }
  };
  return (
    <Modal
      open
      zIndex={DIALOG_Z_INDEX}
      title={`${move.label}：${order.orderNo}`}
      width={MODAL_WIDTH}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={move.label}
      okButtonProps={{ danger: move.danger }}
      cancelText="取消"
      confirmLoading={running}
    >
      {move.confirm && <p className="wx-order-dialog-note">{move.confirm}</p>}
      <Form form={form} layout="vertical" onFinish={submit} name={`order-${move.name}`}>
        <Form.Item
          name="reason"
          label={`${move.label}原因`}
          rules={[
            { required: true, whitespace: true, message: `请填写${move.label}原因` },
            { max: 200, message: '原因最多200个字符' },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 4 }}
            maxLength={200}
            showCount
            placeholder="请输入原因"
          />
        </Form.Item>
        <Space wrap size={[8, 8]}>
          {(COMMON_REASONS[move.name] ?? []).map((text) => (
            <Tag.CheckableTag key={text} checked={false} onChange={() => form.setFieldValue('reason', text)}>
              {text}
            </Tag.CheckableTag>
          ))}
        </Space>
      </Form>
    </Modal>
  );
}

export function PayDialog({
  api,
  order,
  customer,
  run,
  onClose,
  report,
}: DialogProps & { api: OrderApi; customer: CounterCustomer | null }) {
  const [form] = Form.useForm<{ payMethod: string; cardId?: number }>();
  const method = Form.useWatch('payMethod', form) ?? order.payMethod;
  const [cards, setCards] = useState<CardRow[] | null>(null);
  const [running, setRunning] = useState(false);
  const member = order.userId !== null;

  useEffect(() => {
    if (method !== 'card' || order.userId === null || cards !== null) return;
    api.cardsOf(order.userId).then(setCards, (error) => {
      setCards([]);
      report(error);
    });
  }, [api, method, order.userId, cards, report]);

  const submit = async (values: { payMethod: string; cardId?: number }) => {
    setRunning(true);
    try {
      await run(order, 'pay', {
        payMethod: values.payMethod,
        ...(values.payMethod === 'card' ? { cardId: values.cardId } : {}),
      });
      onClose();
    } catch (error) {
      showFailure(form, ['payMethod', 'cardId'], error, report);
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      open
      zIndex={DIALOG_Z_INDEX}
      title={`收款：${order.orderNo}`}
      width={MODAL_WIDTH}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={`确认收款 ${formatMoney(order.payableFen)}`}
      cancelText="取消"
      confirmLoading={running}
    >
      <div className="wx-order-pay-amount">
        应收 <strong>{formatMoney(order.payableFen)}</strong>
      </div>
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        name="order-pay"
        initialValues={{
          payMethod:
            member || !MEMBER_PAY_METHODS.includes(order.payMethod as PayMethod) ? order.payMethod : 'cash',
        }}
      >
        <Form.Item name="payMethod" label="支付方式" rules={[{ required: true, message: '请选择支付方式' }]}>
          <Select
            options={COUNTER_PAY_METHODS.map((m) => ({
              value: m,
              label: PAY_METHOD_LABELS[m],
              // Balance and cards are a member's: a walk-in customer pays in cash or WeChat.
              disabled: !member && MEMBER_PAY_METHODS.includes(m),
            }))}
          />
        </Form.Item>
        {method === 'balance' && customer && (
          <p className="wx-order-dialog-note">
            顾客余额 {formatMoney(customer.balanceFen)}
            {customer.balanceFen < order.payableFen ? '，不足以支付本单' : ''}
          </p>
        )}
        {method === 'card' && (
          <Form.Item name="cardId" label="储值卡" rules={[{ required: true, message: '请选择储值卡' }]}>
            <Select
              loading={cards === null}
              placeholder="选择顾客的储值卡"
              notFoundContent={cards === null ? undefined : '顾客没有可用的储值卡'}
              options={(cards ?? []).map((c) => ({
                value: c.id,
                label: `${c.cardNo}（余额 ${formatMoney(c.balanceFen)}）`,
                disabled: c.balanceFen < order.payableFen,
              }))}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

export function DispatchDialog({ api, order, run, onClose, report }: DialogProps & { api: OrderApi }) {
  const [form] = Form.useForm<{ runnerId?: number }>();
  const [candidates, setCandidates] = useState<DispatchCandidate[] | null>(null);
  const [suggested, setSuggested] = useState<number | null>(null);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    let live = true;
    api.dispatch(order.storeId).then(
      (board) => {
        if (!live) return;
        const entry = board.waiting.find((w) => w.order.id === order.id);
        const list = entry?.candidates.length
          ? entry.candidates
          : board.runners.map((r) => ({ ...r, distanceM: null }));
        // An assigned runner stays the choice; else the dispatcher's suggestion.
        const chosen = entry?.runnerId ?? order.runnerId ?? entry?.suggestion?.id ?? null;
        setCandidates(
          chosen !== null && !list.some((c) => c.id === chosen)
            ? [
                ...list,
                {
                  id: chosen,
                  name: `骑手 #${chosen}`,
                  status: 'delivering',
                  distanceM: null,
                  openDeliveries: 0,
                },
              ]
            : list,
        );
        setSuggested(entry?.suggestion?.id ?? null);
        if (chosen !== null) form.setFieldValue('runnerId', chosen);
      },
      (error) => {
        if (!live) return;
        setCandidates([]);
        report(error);
      },
    );
    return () => {
      live = false;
    };
  }, [api, order, form, report]);

  const submit = async ({ runnerId }: { runnerId?: number }) => {
    setRunning(true);
    try {
      await run(order, 'dispatch', { runnerId });
      onClose();
    } catch (error) {
      showFailure(form, ['runnerId'], error, report);
    } finally {
      setRunning(false);
    }
  };

  return (
    <Modal
      open
      zIndex={DIALOG_Z_INDEX}
      title={`开始配送：${order.orderNo}`}
      width={MODAL_WIDTH}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText="开始配送"
      cancelText="取消"
      confirmLoading={running}
    >
      {order.address && <p className="wx-order-dialog-note">送至：{order.address}</p>}
      <Form form={form} layout="vertical" onFinish={submit} name="order-dispatch">
        <Form.Item name="runnerId" label="骑手" rules={[{ required: true, message: '请选择骑手' }]}>
          <Select
            loading={candidates === null}
            placeholder="选择骑手"
            notFoundContent={candidates === null ? undefined : '没有在岗的骑手'}
            options={(candidates ?? []).map((c) => ({
              value: c.id,
              label: c.id === suggested ? `${candidateLabel(c)}（推荐）` : candidateLabel(c),
            }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
