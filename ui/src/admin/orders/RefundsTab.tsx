/**
 * 退款/售后: the refunds of every order (orderRefunds), the registry's own list — its filters, the
 * customers' pending requests with 同意退款 / 拒绝退款 — as the board's last tab. Its query stays in
 * the tab (not the board's URL, which is the orders' view).
 */
import { getResource } from '@wanxiang/core';
import { useState } from 'react';
import { ResourceView } from '../../resources/ResourceView';
import '../../resources/resources.css';

const REFUNDS = getResource('orderRefunds');

export default function RefundsTab() {
  const [search, setSearch] = useState('');
  return (
    <div className="wx-order-refunds">
      <ResourceView def={REFUNDS} title="退款记录" location={{ search, setSearch }} />
    </div>
  );
}
