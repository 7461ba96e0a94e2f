/**
 * `wanxiang orders show <订单号>` and `wanxiang orders refund <订单号>`: the operator's daily
 * look at one order (lines, money, timeline) and a refund from a terminal. The order is found by
 * its number (what a customer reads out on the phone); the refund is the orders' `refund` action,
 * so the server's rule (core's planRefund: never more than paid) decides, and its Chinese reason
 * is what the operator sees when it refuses.
 */
import {
  FULFILMENT_LABELS,
  type Fulfilment,
  formatDateTime,
  formatMoney,
  getResource,
  ORDER_STATUS_LABELS,
  type OrderStatus,
  type Row,
  yuanToFen,
} from '@wanxiang/core';
import type { Command } from 'commander';
import { CliError, ExitCode } from '../errors';
import { confirmOrRefuse } from '../io/confirm';
import { outputWidth } from '../io/terminal';
import { renderTable } from '../output/table';
import type { Runtime } from '../runtime';
import { chosenFormat, clientOf, connect, formatOption, jsonOption } from './resource-context';

interface Line {
  name?: string;
  sku?: string | null;
  qty: number;
  unitPriceFen: number;
  discountFen?: number;
  payableFen?: number;
  refundedQty?: number;
}

interface HistoryEntry {
  from: string | null;
  to: string;
  operator: string | null;
  note: string | null;
  at: string;
}

const orders = getResource('orders');
const status = (s: unknown) => ORDER_STATUS_LABELS[s as OrderStatus] ?? String(s ?? '-');

async function findOrder(runtime: Runtime, cmd: Command, orderNo: string) {
  const server = connect(runtime, cmd);
  const client = clientOf(server, orders);
  const found = await client.list({ filters: { orderNo }, limit: 1 });
  if (!found.success) throw found.error;
  const row = found.list[0];
  if (!row)
    throw new CliError(`没有订单号为 ${orderNo} 的订单`, {
      hint: '订单号是 22 位数字，可在订单列表或小票上找到',
    });
  return { server, client, row, relations: found.relations };
}

function renderOrder(
  row: Row,
  storeName: string,
  customer: string,
  history: HistoryEntry[],
  width: number,
): string {
  const items = (row.items ?? []) as Line[];
  const out: string[] = [];
  out.push(`订单 ${row.orderNo}  ${status(row.status)}`);
  out.push(
    `门店：${storeName}    顾客：${customer}    ${FULFILMENT_LABELS[row.fulfilment as Fulfilment] ?? ''}    支付方式：${row.payMethod ?? '-'}`,
  );
  if (row.address) out.push(`收货地址：${row.address}`);
  if (row.remark) out.push(`备注：${row.remark}`);
  out.push('');
  const table = renderTable(
    [
      { header: '#', align: 'right', shrink: false },
      { header: '商品' },
      { header: '数量', align: 'right', shrink: false },
      { header: '单价', align: 'right', shrink: false },
      { header: '优惠', align: 'right', shrink: false },
      { header: '实付', align: 'right', shrink: false },
      { header: '已退', align: 'right', shrink: false },
    ],
    items.map((l, i) => [
      String(i),
      l.sku ? `${l.name ?? ''}（${l.sku}）` : String(l.name ?? ''),
      String(l.qty),
      formatMoney(l.unitPriceFen),
      l.discountFen === undefined ? '-' : formatMoney(l.discountFen),
      l.payableFen === undefined ? '-' : formatMoney(l.payableFen),
      String(l.refundedQty ?? 0),
    ]),
    width,
  );
  out.push(table.text.trimEnd());
  out.push('');
  const money: [string, unknown][] = [
    ['商品金额', row.goodsFen],
    ['会员折扣', row.memberFen],
    ['满减', row.discountFen],
    ['优惠券', row.couponFen],
    ['积分抵扣', row.pointsFen],
    ['打包费', row.packingFen],
    ['配送费', row.deliveryFen],
    ['应付', row.payableFen],
    ['实付', row.paidFen],
    ['已退款', row.refundedFen],
  ];
  out.push(
    money
      .filter(([, v]) => typeof v === 'number' && v !== 0)
      .map(([label, v]) => `${label} ${formatMoney(v as number)}`)
      .join('  '),
  );
  out.push('', '时间线：');
  for (const h of history) {
    const move = h.from && h.from !== h.to ? `${status(h.from)} → ${status(h.to)}` : status(h.to);
    out.push(`  ${formatDateTime(h.at)}  ${move}  ${h.operator ?? '系统'}${h.note ? `  ${h.note}` : ''}`);
  }
  return `${out.join('\n')}\n`;
}

export function registerOrderTasks(group: Command, runtime: Runtime): void {
  group
    .command('show')
    .description('显示一笔订单：商品明细、金额、时间线（按订单号）')
    .argument('<订单号>', '订单号')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang orders show 2024050112000100000123\n  $ wanxiang orders show 2024050112000100000123 --json | jq .history',
    )
    .action(async (orderNo: string, options: { format: 'table' | 'json'; json?: boolean }, cmd: Command) => {
      const { server, row, relations } = await findOrder(runtime, cmd, orderNo.trim());
      const history = (
        await server.http.request<{ data: HistoryEntry[] }>(`/api/admin/orders/${row.id}/history`, {})
      ).data;
      if (chosenFormat(options) === 'json') {
        runtime.io.stdout.write(`${JSON.stringify({ ...row, history }, null, 2)}\n`);
        return;
      }
      const name = (field: string) => {
        const id = row[field];
        return id == null ? '-' : (relations[field]?.[String(id)] ?? `#${id}`);
      };
      runtime.io.stdout.write(
        renderOrder(
          row,
          name('storeId'),
          name('userId'),
          history,
          Math.min(outputWidth(runtime.io.stdout, runtime.io.env), 120),
        ),
      );
    });

  group
    .command('refund')
    .description('给订单退款：不给金额则退还全部可退金额；原路退回（余额、储值卡），写入时间线')
    .argument('<订单号>', '订单号')
    .requiredOption('--reason <原因>', '退款原因（写入退款记录与订单时间线）')
    .option('--amount <元>', '退款金额（元），如 12.5；不给则整单退')
    .option('-y, --yes', '不再询问（不在终端里运行时必须给出）')
    .addOption(formatOption(['table', 'json']))
    .addOption(jsonOption())
    .addHelpText(
      'after',
      '\n示例：\n  $ wanxiang orders refund 2024050112000100000123 --amount 8.5 --reason "少送一份米饭"\n  $ wanxiang orders refund 2024050112000100000123 --reason "顾客取消" --yes',
    )
    .action(
      async (
        orderNo: string,
        options: { reason: string; amount?: string; yes?: boolean; format: 'table' | 'json'; json?: boolean },
        cmd: Command,
      ) => {
        const body: Record<string, unknown> = { reason: options.reason };
        if (options.amount !== undefined) {
          const fen = yuanToFen(options.amount);
          if (fen === null || fen <= 0)
            throw new CliError(`退款金额须为大于 0 的元数，最多两位小数（收到 ${options.amount}）`, {
              exitCode: ExitCode.usage,
            });
          body.amountFen = fen;
        }
        const { server, row } = await findOrder(runtime, cmd, orderNo.trim());
        const what = `订单 ${row.orderNo} 退款${body.amountFen ? ` ${formatMoney(body.amountFen as number)}` : '（全部可退金额）'}`;
        await confirmOrRefuse(runtime.io, { what, question: `${what}，款项将原路退回。确定？` }, options.yes);
        const refund = (
          await server.http.request<{ data: Row }>(`/api/admin/orders/${row.id}/refund`, {
            method: 'POST',
            body,
          })
        ).data;
        if (chosenFormat(options) === 'json') {
          runtime.io.stdout.write(`${JSON.stringify(refund, null, 2)}\n`);
          return;
        }
        runtime.io.stdout.write(
          `已退款 ${formatMoney(refund.amountFen as number)}（${refund.kind === 'full' ? '全额' : '部分'}，退款单号 ${refund.refundNo}）\n`,
        );
      },
    );
}
