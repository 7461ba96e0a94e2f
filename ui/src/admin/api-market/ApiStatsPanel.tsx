/**
 * The figures of one API over the last 30 days: totals, then the charts (their own lazy chunk).
 * Read from the gateway's stats route; a server without it (or a failure) says so in Chinese.
 */
import { Skeleton } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useServices } from '../../session/services-context';
import { type ApiDay, fetchApiStats, STATS_DAYS, totalsOf } from './stats';
import './api-market.css';

const ApiStatsCharts = lazy(() => import('./ApiStatsCharts'));

export function ApiStatsPanel({ of, id }: { of: 'marketApis' | 'apiKeys'; id: number }) {
  const { http } = useServices();
  const [days, setDays] = useState<ApiDay[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setDays(null);
    setFailed(false);
    fetchApiStats(http, of, id).then(
      (stats) => current && setDays(stats.days),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [http, of, id]);

  if (failed) return <p className="wx-api-stats-failed">调用统计暂不可用，请稍后重试</p>;
  if (!days) return <Skeleton active paragraph={{ rows: 4 }} />;
  const totals = totalsOf(days);
  return (
    <div className="wx-api-stats">
      <ul className="wx-monitor-counts" aria-label={`最近 ${STATS_DAYS} 天`}>
        <li className="wx-monitor-count">
          <span className="wx-monitor-count-label">近 {STATS_DAYS} 天调用</span>
          <b>{totals.calls}</b> 次
        </li>
        <li className="wx-monitor-count wx-monitor-count-red">
          <span className="wx-monitor-count-label">出错</span>
          <b>{totals.failed}</b> 次
        </li>
        <li className="wx-monitor-count wx-monitor-count-orange">
          <span className="wx-monitor-count-label">限流或额度不足</span>
          <b>{totals.refused}</b> 次
        </li>
        <li className="wx-monitor-count wx-monitor-count-default">
          <span className="wx-monitor-count-label">平均耗时</span>
          <b>{totals.latencyAvgMs ?? '—'}</b> 毫秒
        </li>
      </ul>
      <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
        <ApiStatsCharts days={days} />
      </Suspense>
    </div>
  );
}
