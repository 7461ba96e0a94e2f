/**
 * cloud/cdn/usage (custom screen): hourly usage of the chosen domains over 24 h / 7 d / 30 d or
 * a range of days — cards, charts (ECharts, lazy), the hours as a table exported as CSV — and
 * 导入日志 (an access log uploaded to the import endpoint, its outcome shown). Tabs: the board,
 * 导入记录 (the imports' history) and the generic cdnUsage list (filters, export).
 *
 * The hit ratio is unknown (未知), not 0, when the imported logs carry no cache field.
 */
import { DownloadOutlined, ReloadOutlined, UploadOutlined } from '@ant-design/icons';
import {
  chinaDayOf,
  chinaDayStart,
  chinaHourLabel,
  createResourceClient,
  formatBytes,
  formatHitRatio,
  USAGE_PERIODS,
  type UsagePeriod,
  usagePeriodRange,
} from '@wanxiang/core';
import { Alert, Button, Col, Row, Segmented, Select, Skeleton, Space, Statistic, Table } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { failureText, useRemote } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { fetchHourly, type HourFigures } from './cdn-api';
import { ImportHistory } from './ImportHistory';
import '../../resources/resources.css';
import './cdn.css';
import { definition, useRouteListings } from '../../resources/definitions';

// Loaded on use, so the board shows without them: the charts (ECharts), the 自定义 range picker
// (antd DatePicker + dayjs) and the 导入日志 dialog.
const CdnCharts = lazy(() => import('./CdnCharts'));
const CdnRangePicker = lazy(() => import('./CdnRangePicker'));
const ImportDialog = lazy(() => import('./ImportDialog'));
const ListTab = lazy(() => import('../monitor/ListTab'));

type Period = UsagePeriod | 'custom';

function useDomainOptions(version: number) {
  const { http } = useServices();
  const client = useMemo(() => createResourceClient(http, definition('cdnDomains')), [http]);
  const [options, setOptions] = useState<{ value: number; label: string }[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloaded when asked (version)
  useEffect(() => {
    let current = true;
    client.list({ page: 1, limit: 100 }).then(
      (answer) => {
        if (current && answer.success)
          setOptions(answer.list.map((r) => ({ value: r.id, label: String(r.domain) })));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [client, version]);
  return options;
}

function csvOf(hours: HourFigures[]): string {
  const head = ['时段', '请求数', '流量（字节）', '流量', '命中率', '2xx', '3xx', '4xx', '5xx'];
  const rows = hours.map((h) => [
    chinaHourLabel(Date.parse(h.hour)),
    h.requests,
    h.bytes,
    formatBytes(h.bytes),
    h.hitRatio === null ? '' : h.hitRatio.toFixed(4),
    h.status2xx,
    h.status3xx,
    h.status4xx,
    h.status5xx,
  ]);
  // A BOM so Excel reads the Chinese header as UTF-8.
  return `\uFEFF${[head, ...rows].map((r) => r.join(',')).join('\r\n')}\r\n`;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  URL.revokeObjectURL(url);
}

function UsageBoard({ version, onImported }: { version: number; onImported: () => void }) {
  const { http } = useServices();
  const domains = useDomainOptions(version);
  const [domainIds, setDomainIds] = useState<number[]>([]);
  const [period, setPeriod] = useState<Period>('24h');
  const [days, setDays] = useState<[number, number]>(() => {
    const today = chinaDayOf(Date.now());
    return [today - 6, today];
  });
  const [importing, setImporting] = useState(false);
  const range = useMemo(
    () =>
      period === 'custom'
        ? { from: chinaDayStart(days[0]), to: chinaDayStart(days[1] + 1) }
        : usagePeriodRange(period, Date.now()),
    [period, days],
  );
  const [remote, retry] = useRemote(
    () => fetchHourly(http, domainIds, range.from, range.to),
    [http, domainIds.join(','), range.from, range.to, version],
    { keepData: true },
  );
  const data = remote.data;
  // Newest hour first in the table; the charts read left to right.
  const tableRows = useMemo(() => [...(data?.hours ?? [])].reverse(), [data]);
  const totals = data?.totals;

  return (
    <div className="wx-cdn-board">
      <div className="wx-cdn-panel wx-cdn-toolbar">
        <Space wrap size={[12, 12]}>
          <Select<number[]>
            mode="multiple"
            aria-label="域名"
            className="wx-cdn-domains"
            allowClear
            placeholder="全部域名"
            showSearch={{ optionFilterProp: 'label' }}
            value={domainIds}
            options={domains}
            onChange={setDomainIds}
            maxTagCount="responsive"
          />
          <Segmented<Period>
            aria-label="时段"
            value={period}
            onChange={setPeriod}
            options={[
              ...Object.entries(USAGE_PERIODS).map(([value, label]) => ({ value: value as Period, label })),
              { value: 'custom', label: '自定义' },
            ]}
          />
          {period === 'custom' && (
            <Suspense fallback={<Skeleton.Input active className="wx-cdn-range-loading" />}>
              <CdnRangePicker days={days} onChange={setDays} />
            </Suspense>
          )}
          <Button icon={<ReloadOutlined />} onClick={retry} loading={remote.state === 'loading'}>
            刷新
          </Button>
          <Button
            icon={<DownloadOutlined />}
            disabled={!data}
            onClick={() =>
              data && download(`CDN用量_${chinaHourLabel(range.from).slice(0, 10)}.csv`, csvOf(data.hours))
            }
          >
            导出 CSV
          </Button>
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setImporting(true)}>
            导入日志
          </Button>
        </Space>
      </div>

      {remote.state === 'failed' && (
        <Alert type="error" showIcon title={`用量加载失败：${failureText(remote.error)}`} />
      )}

      {totals ? (
        <>
          <Row gutter={[16, 16]} className="wx-cdn-cards">
            <Col xs={12} lg={6}>
              <div className="wx-cdn-panel wx-cdn-panel-body">
                <Statistic title="请求数" value={totals.requests} />
              </div>
            </Col>
            <Col xs={12} lg={6}>
              <div className="wx-cdn-panel wx-cdn-panel-body">
                <Statistic title="流量" value={formatBytes(totals.bytes)} />
              </div>
            </Col>
            <Col xs={12} lg={6}>
              <div className="wx-cdn-panel wx-cdn-panel-body">
                <Statistic title="缓存命中率" value={formatHitRatio(totals.hitRatio)} />
                {totals.hitRatio === null && totals.requests > 0 && (
                  <div className="wx-cdn-hint">
                    日志没有缓存状态字段（$upstream_cache_status），命中率未知
                  </div>
                )}
              </div>
            </Col>
            <Col xs={12} lg={6}>
              <div className="wx-cdn-panel wx-cdn-panel-body">
                <Statistic
                  title="4xx / 5xx"
                  value={`${totals.status4xx.toLocaleString('zh-CN')} / ${totals.status5xx.toLocaleString('zh-CN')}`}
                />
              </div>
            </Col>
          </Row>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <CdnCharts hours={data.hours} />
          </Suspense>
          <section className="wx-cdn-panel wx-cdn-table" aria-label="按小时">
            <h3 className="wx-cdn-panel-head">按小时</h3>
            <div className="wx-cdn-panel-body">
              <Table<HourFigures>
                rowKey="hour"
                size="small"
                loading={remote.state === 'loading'}
                dataSource={tableRows}
                pagination={{ pageSize: 24, showSizeChanger: false }}
                scroll={{ x: 800 }}
                columns={[
                  {
                    title: '时段',
                    dataIndex: 'hour',
                    width: 150,
                    render: (v: string) => chinaHourLabel(Date.parse(v)),
                  },
                  {
                    title: '请求数',
                    dataIndex: 'requests',
                    render: (v: number) => v.toLocaleString('zh-CN'),
                  },
                  { title: '流量', dataIndex: 'bytes', render: (v: number) => formatBytes(v) },
                  { title: '命中率', dataIndex: 'hitRatio', render: (v: number | null) => formatHitRatio(v) },
                  { title: '2xx', dataIndex: 'status2xx' },
                  { title: '3xx', dataIndex: 'status3xx' },
                  { title: '4xx', dataIndex: 'status4xx' },
                  { title: '5xx', dataIndex: 'status5xx' },
                ]}
              />
            </div>
          </section>
        </>
      ) : remote.state === 'loading' ? (
        <div className="wx-cdn-panel wx-cdn-panel-loading">
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      ) : null}

      {importing && (
        <Suspense fallback={null}>
          <ImportDialog
            http={http}
            domains={domains}
            initialDomainId={domainIds.length === 1 ? (domainIds[0] as number) : null}
            onClose={() => setImporting(false)}
            onImported={onImported}
          />
        </Suspense>
      )}
    </div>
  );
}

const TABS = [
  { key: 'board', title: '用量统计' },
  { key: 'imports', title: '导入记录' },
  { key: 'list', title: '用量明细' },
] as const;
type TabKey = (typeof TABS)[number]['key'];

export default function CdnUsageScreen() {
  const [active, setActive] = useState<TabKey>('board');
  const [opened, setOpened] = useState<ReadonlySet<TabKey>>(() => new Set(['board']));
  // An import moves it: the board, the history and the domain list load again.
  const [version, setVersion] = useState(0);
  const routeListings = useRouteListings('cloud/cdn/usage');
  const [listing] = useState(() => routeListings[0]);
  const open = (key: TabKey) => {
    setActive(key);
    setOpened((prev) => (prev.has(key) ? prev : new Set([...prev, key])));
  };
  return (
    <section className="wx-admin-panel wx-resource-page">
      <h2 className="wx-admin-panel-title">CDN 用量</h2>
      <div className="wx-resource-tabs" role="tablist" aria-label="CDN 用量">
        {TABS.map(({ key, title }) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={key === active}
            className={key === active ? 'wx-resource-tab wx-resource-tab-active' : 'wx-resource-tab'}
            onClick={() => open(key)}
          >
            {title}
          </button>
        ))}
      </div>
      <div role="tabpanel" hidden={active !== 'board'}>
        <UsageBoard version={version} onImported={() => setVersion((v) => v + 1)} />
      </div>
      {opened.has('imports') && (
        <div role="tabpanel" hidden={active !== 'imports'}>
          <ImportHistory version={version} />
        </div>
      )}
      {opened.has('list') && listing && (
        <div role="tabpanel" hidden={active !== 'list'}>
          <Suspense fallback={<Skeleton active />}>
            <ListTab listing={listing} />
          </Suspense>
        </div>
      )}
    </section>
  );
}
