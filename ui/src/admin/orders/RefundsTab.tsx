/**
 * 退款/售后: the refunds of every order (orderRefunds), the registry's own list — its filters, the
 * customers' pending requests with 同意退款 / 拒绝退款 — as the board's last tab. Its query stays in
 * the tab (not the board's URL, which is the orders' view).
 */
import { useState } from 'react';
import { definition } from '../../resources/definitions';
import { ResourceView } from '../../resources/ResourceView';
import '../../resources/resources.css';

export default function RefundsTab() {
  const [search, setSearch] = useState('');
  return (
    <div className="wx-order-refunds">
      <ResourceView def={definition('orderRefunds')} title="退款记录" location={{ search, setSearch }} />
    </div>
  );
}
