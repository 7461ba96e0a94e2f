/**
 * monitor/ssl (custom screen): everyone's certificate jobs — counts by status, then each host with
 * its verdict, days left, expiry and the chain last seen (expand a row), 立即检测 (the resource's
 * checkNow). Pushes of `/ws` topic `monitor` (type certificate) update the rows. The registry lists
 * follow as tabs (sslJobs with every generic feature, and the alert list).
 */
import { ReloadOutlined } from '@ant-design/icons';
import { createResourceClient, type EnumOption, type Row } from '@wanxiang/core';
import { App, Button, Space, Table, Tag } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { NO_FIGURE, timeText } from '../../monitor/format';
import { MONITOR_TOPIC, useTopic } from '../../monitor/topic-feed';
import type { ChainCard } from '../../public/monitor/ChainView';
import { type SslWatch, VERDICTS } from '../../public/monitor/ssl-api';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { RouteTabs } from './RouteTabs';
import { SearchBox } from './SearchBox';
import './boards.css';
import { definition, definitionField } from '../../resources/definitions';

// The chain's cards load when a row is expanded.
const ChainView = lazy(() =>
  import('../../public/monitor/ChainView').then((m) => ({ default: m.ChainView })),
);

const PAGE = 20;
type SslRow = Row & SslWatch & { chain?: ChainCard[] | null };

const statusOptions = (): readonly EnumOption[] => {
  const field = definitionField('sslJobs', 'status');
  return field.type === 'enum' ? field.options : [];
};

function SslBoard() {
  const { http } = useServices();
  const { message } = App.useApp();
  const client = useMemo(() => createResourceClient<SslRow>(http, definition('sslJobs')), [http]);
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [rows, setRows] = useState<SslRow[]>([]);
  const [total, setTotal] = useState(0);
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState<Record<number, boolean>>({});

  const reload = useCallback(async () => {
    setLoading(true);
    const [answer, ...byStatus] = await Promise.all([
      client.list({ page, limit: PAGE, q: q || undefined, sort: 'notAfter' }),
      ...statusOptions().map((s) => client.list({ limit: 1, filters: { status: s.value } })),
    ]);
    setLoading(false);
    if (!answer?.success) {
      message.error(failureText(answer?.error));
      return;
    }
    setRows(answer.list);
    setTotal(answer.count);
    setCounts(Object.fromEntries(statusOptions().map((s, i) => [s.value, byStatus[i]?.count ?? 0])));
  }, [client, page, q, message]);

  useEffect(() => {
    void reload();
  }, [reload]);

  useTopic(MONITOR_TOPIC, (data) => {
    const push = data as { type?: string; sslJob?: Partial<SslRow> & { id: number } };
    if (push?.type !== 'certificate' || !push.sslJob) return;
    const changed = push.sslJob;
    setRows((prev) => prev.map((r) => (r.id === changed.id ? { ...r, ...changed } : r)));
  });

  const checkNow = async (row: SslRow) => {
    setBusy((b) => ({ ...b, [row.id]: true }));
    try {
      const answer = (await client.action(row.id, 'checkNow')) as unknown as Record<string, unknown>;
      const updated = (answer?.sslJob ?? answer) as Partial<SslRow>;
      if (typeof updated?.id === 'number')
        setRows((prev) => prev.map((r) => (r.id === updated.id ? { ...r, ...updated } : r)));
      message.success(`${row.host}：检测完成`);
    } catch {
      // The HTTP client has told the user why.
    } finally {
      setBusy((b) => ({ ...b, [row.id]: false }));
    }
  };

  return (
    <div className="wx-monitor-board">
      {/* Plain markup rather than antd Statistic cards: the board stays under the first-list bar. */}
      <ul className="wx-monitor-counts" aria-label="按状态统计">
        {statusOptions().map((s) => (
          <li key={s.value} className={`wx-monitor-count wx-monitor-count-${s.color ?? 'default'}`}>
            <span className="wx-monitor-count-label">{s.label}</span>
            <b>{counts[s.value] ?? 0}</b> 个
          </li>
        ))}
      </ul>
      <div className="wx-monitor-toolbar">
        <SearchBox
          placeholder="域名或颁发者"
          onSearch={(value) => {
            setPage(1);
            setQ(value);
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          刷新
        </Button>
      </div>
      <Table<SslRow>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 1000 }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: '暂无证书任务' }}
        expandable={{
          rowExpandable: (r) => Array.isArray(r.chain) && r.chain.length > 0,
          expandedRowRender: (r) => (
            <Suspense fallback={null}>
              <ChainView chain={r.chain ?? []} />
            </Suspense>
          ),
        }}
        columns={[
          {
            title: '主机',
            key: 'host',
            render: (_, r) => (
              <span>
                {r.host}:{r.port}
                {r.starttls && r.starttls !== 'none' && (
                  <Tag style={{ marginLeft: 6 }}>{r.starttls.toUpperCase()}</Tag>
                )}
              </span>
            ),
          },
          {
            title: '状态',
            key: 'status',
            width: 180,
            render: (_, r) => {
              const status = statusOptions().find((s) => s.value === r.status);
              const verdict = r.verdict ? VERDICTS[r.verdict] : null;
              return (
                <Space size={4} wrap>
                  <Tag color={status?.color}>{status?.label ?? r.status}</Tag>
                  {verdict && !['ok', 'expiring', 'expired'].includes(r.verdict ?? '') && (
                    <Tag color={verdict.color}>{verdict.label}</Tag>
                  )}
                </Space>
              );
            },
          },
          {
            title: '剩余天数',
            dataIndex: 'daysLeft',
            width: 100,
            render: (v: number | null, r) => (r.lastCheckAt && typeof v === 'number' ? `${v} 天` : NO_FIGURE),
          },
          { title: '到期时间', dataIndex: 'notAfter', width: 170, render: (v) => timeText(v) },
          { title: '颁发者', dataIndex: 'issuer', ellipsis: true, render: (v) => v ?? NO_FIGURE },
          { title: '最近检测', dataIndex: 'lastCheckAt', width: 170, render: (v) => timeText(v) },
          {
            title: '操作',
            key: 'actions',
            width: 110,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" loading={busy[r.id]} onClick={() => void checkNow(r)}>
                立即检测
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}

export default function MonitorSslScreen() {
  // The alert list (routed with the jobs) is shown here as well, certificates' alerts among them.
  const alerts = definition('monitorAlerts');
  return (
    <RouteTabs
      route="monitor/ssl"
      boardTitle="证书看板"
      board={<SslBoard />}
      extra={[{ def: alerts, filters: {}, title: '告警' }]}
    />
  );
}
