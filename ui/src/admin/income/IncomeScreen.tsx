/**
 * 收入统计 (DOMAIN.md "OMS/income"): revenue, orders, refunds, net and average ticket by day, week
 * or month and by store, from GET /api/admin/income — the figures as cards, charts and a table,
 * and the table as CSV. The charts are a chunk of their own (echarts): the cards and the table
 * show first.
 */
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  fetchIncome,
  GRANULARITIES,
  GRANULARITY_LABELS,
  type Granularity,
  type IncomeQuery,
  type IncomeReport,
  type IncomeTableView,
  incomeExportPath,
  incomeQueryString,
} from '@wanxiang/core';
import { Alert, App, Button, Card, Input, Segmented, Select, Skeleton, Space } from 'antd';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { failureText, useRemote } from '../../public/use-remote';
import { downloadCsv } from '../../resources/export-csv';
import { useServices } from '../../session/services-context';
import { useScreenSearch } from '../tabs/screen-location';
import { IncomeSummary } from './IncomeSummary';
import { IncomeTable } from './IncomeTable';
import { chinaToday, incomeSearch, readIncomeQuery, withGranularity } from './income-query';
import './income.css';

// Chunks of their own, so the cards and the table show first (and the first admin list never
// loads them): ECharts, and the date picker.
const IncomeCharts = lazy(() => import('./IncomeCharts'));
const IncomeRangePicker = lazy(() => import('./IncomeRangePicker'));

export default function IncomeScreen() {
  const { http } = useServices();
  const { message } = App.useApp();
  const [search, setSearch] = useScreenSearch();
  // Today as of the visit: a screen left open past midnight keeps its range until it is changed.
  const [today] = useState(chinaToday);
  const query = useMemo(() => readIncomeQuery(search, today), [search, today]);
  const key = incomeQueryString(query);
  const [remote, retry] = useRemote(() => fetchIncome(http, query), [http, key], { keepData: true });
  const [view, setView] = useState<IncomeTableView>('period');
  const [exporting, setExporting] = useState(false);
  const stores = useStoreOptions(remote.data);

  const go = (next: IncomeQuery) => setSearch(incomeSearch(next));
  const report = remote.data;

  const exportTable = async () => {
    setExporting(true);
    try {
      const name = await downloadCsv(http, incomeExportPath(query, view), '收入统计');
      message.success(`已导出 ${name}`);
    } catch {
      // The HTTP client has told the user why (core's error catalogue).
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="wx-income">
      <Card size="small" className="wx-income-toolbar">
        <Space wrap size={[12, 12]}>
          <h2 className="wx-income-title">收入统计</h2>
          <Segmented<Granularity>
            aria-label="统计粒度"
            value={query.granularity}
            options={GRANULARITIES.map((g) => ({ value: g, label: GRANULARITY_LABELS[g] }))}
            onChange={(g) => go(withGranularity(g, today, query.storeId))}
          />
          <Suspense
            fallback={
              <Input
                aria-label="日期范围"
                className="wx-income-range-waiting"
                value={`${query.from} → ${query.to}`}
                disabled
              />
            }
          >
            <IncomeRangePicker query={query} today={today} onChange={(range) => go({ ...query, ...range })} />
          </Suspense>
          <Select<number>
            aria-label="门店"
            className="wx-income-store"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="全部门店"
            value={query.storeId ?? undefined}
            options={stores}
            onChange={(id) => go({ ...query, storeId: id ?? null })}
          />
          <Button icon={<ReloadOutlined />} onClick={retry} loading={remote.state === 'loading'}>
            刷新
          </Button>
          <Button
            icon={<DownloadOutlined />}
            onClick={() => void exportTable()}
            loading={exporting}
            disabled={!report}
          >
            导出
          </Button>
        </Space>
      </Card>

      {remote.state === 'failed' && (
        <Alert
          type="error"
          showIcon
          className="wx-income-error"
          title={`收入统计加载失败：${failureText(remote.error)}`}
          action={
            <Button size="small" onClick={retry}>
              重试
            </Button>
          }
        />
      )}

      {report ? (
        <>
          <IncomeSummary report={report} />
          <Suspense fallback={<ChartsLoading />}>
            <IncomeCharts report={report} />
          </Suspense>
          <Card size="small" className="wx-income-table-card">
            <Segmented<IncomeTableView>
              aria-label="表格"
              className="wx-income-view"
              value={view}
              onChange={setView}
              options={[
                { value: 'period', label: `按${GRANULARITY_LABELS[report.granularity]}` },
                { value: 'store', label: '按门店' },
              ]}
            />
            <IncomeTable report={report} view={view} loading={remote.state === 'loading'} />
          </Card>
        </>
      ) : remote.state === 'loading' ? (
        <Card>
          <Skeleton active paragraph={{ rows: 8 }} />
        </Card>
      ) : null}
    </div>
  );
}

function ChartsLoading() {
  return (
    <Card size="small" className="wx-income-charts-loading">
      <Skeleton active paragraph={{ rows: 6 }} />
    </Card>
  );
}

/**
 * The stores to filter by, from the answers themselves (every store is a row of an unfiltered
 * answer): no store list to ask for, so a user who reads finance but not the store screens filters
 * as well. The names seen stay while a store is picked.
 */
function useStoreOptions(report: IncomeReport | undefined): { value: number; label: string }[] {
  const known = useRef(new Map<number, string>());
  return useMemo(() => {
    for (const s of report?.byStore ?? []) if (s.storeId !== null) known.current.set(s.storeId, s.storeName);
    return [...known.current].sort(([a], [b]) => a - b).map(([value, label]) => ({ value, label }));
  }, [report]);
}
