/**
 * Carrying out what the board offers on an order: each move of the machine as its admin action
 * (`POST /api/admin/orders/{id}/{move}`), asking first for what it needs — a reason (拒单, 取消),
 * the payment (收款: method, and the customer's prepaid card), the runner (开始配送, with the
 * dispatcher's suggestion chosen) — or a confirmation; 退款 in its own dialog (RefundDialog); 打印小票
 * when the definition has it, showing the print job's outcome. The server decides; its refusal
 * (409, the machine's words) or field errors (422) are shown where they belong.
 */
import { CONFIRM_WIDTH, findOrderMove, type OrderMove } from '@wanxiang/core';
import { App } from 'antd';
import { lazy, type ReactNode, Suspense, useCallback, useState } from 'react';
import { unreportedFailure } from '../../resources/failures';
import type { CounterCustomer, OrderApi, OrderRow, PrintJob } from './order-api';
import { moveLabel, printAction } from './order-moves';

// The dialogs arrive with their first use: the board's first paint carries no form engine.
const RefundDialog = lazy(() => import('./RefundDialog'));
const loadDialogs = () => import('./MoveDialogs');
const ReasonDialog = lazy(() => loadDialogs().then((m) => ({ default: m.ReasonDialog })));
const PayDialog = lazy(() => loadDialogs().then((m) => ({ default: m.PayDialog })));
const DispatchDialog = lazy(() => loadDialogs().then((m) => ({ default: m.DispatchDialog })));

type Dialog =
  | { kind: 'reason'; order: OrderRow; move: OrderMove }
  | { kind: 'pay'; order: OrderRow; customer?: CounterCustomer | null }
  | { kind: 'dispatch'; order: OrderRow }
  | { kind: 'refund'; order: OrderRow };

export interface OrderCommands {
  /** Starts a move, 'refund' or 'print' on an order. */
  start(order: OrderRow, action: string, context?: { customer?: CounterCustomer | null }): void;
  /** The dialogs, to render once. */
  dialogs: ReactNode;
  /** The order an action is running on, for a button's spinner. */
  busy: number | null;
}

export function useOrderCommands(
  api: OrderApi,
  /** After a change the server accepted (the answer: the order, a refund record, a print job). */
  onDone: (order: OrderRow, action: string) => void,
): OrderCommands {
  const { message, modal } = App.useApp();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  // Stable: the dialogs' loading effects depend on it.
  const report = useCallback(
    (error: unknown) => {
      const text = unreportedFailure(error);
      if (text) message.error(text);
    },
    [message],
  );

  /** Runs an action now; rejects with the server's failure for a dialog to show on its fields. */
  const run = async (order: OrderRow, action: string, input: Record<string, unknown> = {}) => {
    setBusy(order.id);
    try {
      // The HTTP client toasts the server's word on success (a mutation); a print job that
      // failed at the printer is still a success of the request, and says why here.
      const answer = await api.act<unknown>(order.id, action, input);
      if (action === 'print') {
        const job = answer as PrintJob;
        if (job.status === 'failed' || job.error) message.error(`打印失败：${job.error ?? job.status}`);
      }
      onDone(order, action);
    } finally {
      setBusy(null);
    }
  };

  const runNow = (order: OrderRow, action: string) => {
    run(order, action).catch(report);
  };

  const start: OrderCommands['start'] = (order, action, context) => {
    if (action === 'refund') return setDialog({ kind: 'refund', order });
    if (action === 'print') {
      if (printAction()) runNow(order, 'print');
      return;
    }
    const move = findOrderMove(action);
    if (!move) return;
    if (move.name === 'pay') return setDialog({ kind: 'pay', order, customer: context?.customer ?? null });
    if (move.name === 'dispatch') return setDialog({ kind: 'dispatch', order });
    if (move.needsReason) return setDialog({ kind: 'reason', order, move });
    if (move.confirm) {
      modal.confirm({
        title: `${moveLabel(move)}：${order.orderNo}`,
        content: move.confirm,
        okText: moveLabel(move),
        okButtonProps: { danger: move.danger },
        cancelText: '取消',
        width: CONFIRM_WIDTH,
        onOk: () => run(order, move.name).catch(report),
      });
      return;
    }
    runNow(order, move.name);
  };

  const close = () => setDialog(null);
  const dialogs = (
    <Suspense fallback={null}>
      {dialog?.kind === 'reason' && (
        <ReasonDialog order={dialog.order} move={dialog.move} run={run} onClose={close} report={report} />
      )}
      {dialog?.kind === 'pay' && (
        <PayDialog
          api={api}
          order={dialog.order}
          customer={dialog.customer ?? null}
          run={run}
          onClose={close}
          report={report}
        />
      )}
      {dialog?.kind === 'dispatch' && (
        <DispatchDialog api={api} order={dialog.order} run={run} onClose={close} report={report} />
      )}
      {dialog?.kind === 'refund' && (
        <RefundDialog order={dialog.order} run={run} onClose={close} report={report} />
      )}
    </Suspense>
  );
  return { start, dialogs, busy };
}
