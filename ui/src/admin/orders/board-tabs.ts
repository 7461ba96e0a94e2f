/**
 * The order board's status tabs, grouped as a merchant works (美团/饿了么 商家后台: 新订单 →
 * 制作 → 出餐 → 配送 → 完成). Every status of the machine is in exactly one tab but 全部.
 *
 * Counts: only the tabs of orders still in progress carry one. Those are few at any time and
 * counted over the (status, createdAt) index; 全部, 已完成 and 已取消 grow with the years (a
 * million rows here), so they show the list's own total when opened instead of a COUNT on every
 * refresh.
 */
import type { OrderStatus } from '@wanxiang/core';

export interface BoardTab {
  key: string;
  label: string;
  /** The statuses listed; null: every order. */
  statuses: readonly OrderStatus[] | null;
  counted: boolean;
}

export const BOARD_TABS: readonly BoardTab[] = [
  { key: 'all', label: '全部', statuses: null, counted: false },
  { key: 'unpaid', label: '待支付', statuses: ['pending_payment'], counted: true },
  { key: 'new', label: '待接单', statuses: ['paid'], counted: true },
  { key: 'cooking', label: '制作中', statuses: ['accepted', 'preparing'], counted: true },
  { key: 'ready', label: '待取餐/配送', statuses: ['ready'], counted: true },
  { key: 'delivering', label: '配送中', statuses: ['delivering', 'delivered'], counted: true },
  { key: 'completed', label: '已完成', statuses: ['completed'], counted: false },
  { key: 'cancelled', label: '已取消', statuses: ['cancelled'], counted: false },
];

/** The tab new orders arrive in (its badge is the board's alert). */
export const NEW_TAB = 'new';

export function tabOf(key: string | null | undefined): BoardTab {
  return BOARD_TABS.find((t) => t.key === key) ?? (BOARD_TABS[0] as BoardTab);
}

/** The list filters of a tab: `status` for one status, `status_in` for several. */
export function statusFilter(tab: BoardTab): Record<string, string> {
  if (!tab.statuses) return {};
  return tab.statuses.length === 1
    ? { status: tab.statuses[0] as string }
    : { status_in: tab.statuses.join(',') };
}
