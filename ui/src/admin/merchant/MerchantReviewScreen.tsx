/**
 * wechat/merchant (custom screen): the review of merchant applications. The board lists them by
 * state (审核中 first); 审核 opens one as a readable page in the applicant's four sections, secrets
 * shown only masked. 通过 and the later steps are the machine's transitions from the row's state
 * (core merchantReviewActions); 驳回 puts a checkbox beside every field — each ticked field gets
 * its own reason, checked by core's validateRejection before sending (the server applies the same
 * rule) and sent as auditDetail [{field, reason}] — that page is ApplicationReview.tsx, loaded on
 * open. The registry list follows as a tab.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { createResourceClient, formatDateTime } from '@wanxiang/core';
import { App, Button, Radio, Table } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import { type Application, applications, NONE, StatusTag } from './application';
import './merchant-review.css';

// The review page loads when an application is opened (see ApplicationReview.tsx for why).
const ApplicationReview = lazy(() => import('./ApplicationReview'));

const PAGE = 20;

const FILTERS: { value: string; label: string }[] = [
  { value: 'auditing', label: '待审核' },
  { value: 'rejected', label: '已驳回' },
  { value: '', label: '全部' },
];

function ReviewBoard() {
  const { http } = useServices();
  const { message } = App.useApp();
  const client = useMemo(() => createResourceClient<Application>(http, applications()), [http]);
  const [status, setStatus] = useState('auditing');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Application[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<number | null>(null);

  const reload = useCallback(async () => {
    setLoading(true);
    const answer = await client.list({
      page,
      limit: PAGE,
      sort: 'submittedAt',
      filters: status ? { status } : {},
    });
    setLoading(false);
    if (!answer?.success) {
      message.error(failureText(answer?.error));
      return;
    }
    setRows(answer.list);
    setTotal(answer.count);
  }, [client, page, status, message]);

  useEffect(() => {
    if (open === null) void reload();
  }, [reload, open]);

  if (open !== null)
    return (
      <Suspense fallback={<div className="wx-mr-loading">加载中…</div>}>
        <ApplicationReview id={open} onBack={() => setOpen(null)} />
      </Suspense>
    );
  return (
    <div className="wx-mr-board">
      <div className="wx-mr-toolbar">
        <Radio.Group
          aria-label="按状态"
          optionType="button"
          options={FILTERS}
          value={status}
          onChange={(e) => {
            setPage(1);
            setStatus(e.target.value);
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          刷新
        </Button>
      </div>
      <Table<Application>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 900 }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: status === 'auditing' ? '没有待审核的申请' : '暂无申请' }}
        columns={[
          { title: '申请编号', dataIndex: 'number', width: 220 },
          { title: '商户简称', dataIndex: 'shortName' },
          { title: '主体名称', dataIndex: 'merchantName', ellipsis: true },
          { title: '联系人', dataIndex: 'contactName', width: 100 },
          { title: '状态', dataIndex: 'status', width: 110, render: (s: string) => <StatusTag status={s} /> },
          {
            title: '提交时间',
            dataIndex: 'submittedAt',
            width: 170,
            render: (v: string | null) => (v ? formatDateTime(v) : NONE),
          },
          {
            title: '操作',
            key: 'open',
            width: 90,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => setOpen(r.id)}>
                {r.status === 'auditing' ? '审核' : '查看'}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}

export default function MerchantReviewScreen() {
  return <RouteTabs route="wechat/merchant" boardTitle="进件审核" board={<ReviewBoard />} />;
}
