/**
 * One job in depth, for /job and the admin screen alike: uptime over 24 h / 7 d / 30 d, response
 * time figures and chart for a chosen range, the latest screenshot of a browser job, and the run
 * history newest first, paged back with `before`. `version` changes when a push says the job was
 * checked again: the figures and the first page reload.
 */
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Image,
  Row,
  Segmented,
  Skeleton,
  Statistic,
  Table,
} from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { failureText, useRemote } from '../public/use-remote';
import type { Job, JobReader, Run, StatsRange } from './api';
import { msText, NO_FIGURE, percentText, timeText, uptimeTone } from './format';
import { StatusTag } from './StatusTag';
import { UptimeBar } from './UptimeBar';
import './monitor.css';

const LatencyChart = lazy(() => import('./LatencyChart'));

export const RUNS_PAGE = 50;

const RANGES: { label: string; value: StatsRange }[] = [
  { label: '24 小时', value: '24h' },
  { label: '7 天', value: '7d' },
  { label: '30 天', value: '30d' },
];

function UptimeFigure({ title, value }: { title: string; value: number | null | undefined }) {
  return (
    <Statistic
      title={title}
      value={percentText(value)}
      className={`wx-uptime-figure-${uptimeTone(value)}`}
      styles={{ content: { fontSize: 22 } }}
    />
  );
}

function RunHistory({ job, reader, version }: { job: Job; reader: JobReader; version: number }) {
  const [runs, setRuns] = useState<Run[]>([]);
  const [state, setState] = useState<{ loading: boolean; more: boolean; error: string | null }>({
    loading: true,
    more: false,
    error: null,
  });

  const load = async (before?: string) => {
    setState((s) => ({ ...s, loading: true, error: null }));
    try {
      const page = await reader.runs(job.id, { limit: RUNS_PAGE, before });
      setRuns((prev) => (before ? [...prev, ...page] : page));
      setState({ loading: false, more: page.length === RUNS_PAGE, error: null });
    } catch (error) {
      setState((s) => ({ ...s, loading: false, error: failureText(error) }));
    }
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: reload the first page on a new check
  useEffect(() => {
    void load();
  }, [job.id, version]);

  return (
    <Card size="small" title="检查记录" className="wx-jobd-section">
      {state.error && <Alert type="error" showIcon title={state.error} style={{ marginBottom: 12 }} />}
      <Table<Run>
        size="small"
        rowKey={(r) => `${r.id}-${r.at}`}
        dataSource={runs}
        loading={state.loading}
        pagination={false}
        locale={{ emptyText: '还没有检查记录' }}
        scroll={{ x: 640 }}
        columns={[
          { title: '检查时间', dataIndex: 'at', width: 170, render: (v: string) => timeText(v) },
          { title: '结果', dataIndex: 'status', width: 90, render: (v: string) => <StatusTag status={v} /> },
          { title: 'HTTP 状态码', dataIndex: 'httpStatus', width: 110, render: (v) => v ?? NO_FIGURE },
          { title: '响应时间', dataIndex: 'latencyMs', width: 100, render: (v) => msText(v) },
          {
            title: '信息',
            dataIndex: 'message',
            render: (v, r) => `${r.important ? '【状态变化】' : ''}${v ?? ''}`,
          },
        ]}
      />
      {state.more && (
        <Button
          block
          style={{ marginTop: 12 }}
          loading={state.loading}
          onClick={() => void load(runs[runs.length - 1]?.at)}
        >
          更早的记录
        </Button>
      )}
    </Card>
  );
}

export function JobDetail({ job, reader, version = 0 }: { job: Job; reader: JobReader; version?: number }) {
  const [range, setRange] = useState<StatsRange>('24h');
  const [uptime] = useRemote(() => reader.uptime(job.id), [job.id, version], { keepData: true });
  const [stats] = useRemote(() => reader.stats(job.id, range), [job.id, range, version], { keepData: true });

  return (
    <div className="wx-jobd" data-testid="job-detail">
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} style={{ marginBottom: 16 }}>
        <Descriptions.Item label="状态">
          <StatusTag status={job.status} />
        </Descriptions.Item>
        <Descriptions.Item label="监控地址">
          <span style={{ wordBreak: 'break-all' }}>{job.url}</span>
        </Descriptions.Item>
        <Descriptions.Item label="最近检查">{timeText(job.lastCheckAt)}</Descriptions.Item>
        <Descriptions.Item label="响应时间">{msText(job.lastLatencyMs)}</Descriptions.Item>
      </Descriptions>
      {job.recent && job.recent.length > 0 && (
        <div style={{ marginBottom: 16 }}>
          <UptimeBar beats={job.recent} />
        </div>
      )}
      {uptime.state === 'failed' && <Alert type="error" showIcon title={failureText(uptime.error)} />}
      <Row gutter={[16, 16]} className="wx-jobd-figures" aria-label="可用率">
        <Col xs={8}>
          <UptimeFigure title="24 小时可用率" value={uptime.data?.h24} />
        </Col>
        <Col xs={8}>
          <UptimeFigure title="7 天可用率" value={uptime.data?.d7} />
        </Col>
        <Col xs={8}>
          <UptimeFigure title="30 天可用率" value={uptime.data?.d30} />
        </Col>
      </Row>
      <Card
        size="small"
        title="响应时间"
        extra={
          <Segmented<StatsRange>
            size="small"
            options={RANGES}
            value={range}
            onChange={setRange}
            aria-label="统计范围"
          />
        }
      >
        {stats.state === 'failed' && <Alert type="error" showIcon title={failureText(stats.error)} />}
        {stats.data ? (
          <>
            <Row gutter={16} style={{ marginBottom: 8 }}>
              <Col xs={6}>
                <Statistic
                  title="平均"
                  value={msText(stats.data.avgMs)}
                  styles={{ content: { fontSize: 16 } }}
                />
              </Col>
              <Col xs={6}>
                <Statistic
                  title="P50"
                  value={msText(stats.data.p50Ms)}
                  styles={{ content: { fontSize: 16 } }}
                />
              </Col>
              <Col xs={6}>
                <Statistic
                  title="P95"
                  value={msText(stats.data.p95Ms)}
                  styles={{ content: { fontSize: 16 } }}
                />
              </Col>
              <Col xs={6}>
                <Statistic
                  title="P99"
                  value={msText(stats.data.p99Ms)}
                  styles={{ content: { fontSize: 16 } }}
                />
              </Col>
            </Row>
            <Suspense fallback={<Skeleton active />}>
              <LatencyChart stats={stats.data} />
            </Suspense>
          </>
        ) : (
          stats.state === 'loading' && <Skeleton active />
        )}
      </Card>
      {job.kind === 'browser' && (
        <Card size="small" title="最新截图" className="wx-jobd-section wx-jobd-screenshot">
          {job.screenshot ? (
            <Image src={job.screenshot} alt={`${job.name} 的页面截图`} />
          ) : (
            <span>还没有截图：浏览器任务检查一次后显示</span>
          )}
        </Card>
      )}
      <RunHistory job={job} reader={reader} version={version} />
    </div>
  );
}
