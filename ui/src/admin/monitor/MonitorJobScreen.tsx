/**
 * monitor/job (custom screen): everyone's monitor jobs at a glance — status, the bar of the last 50
 * checks, 24 h uptime, response time — with 立即检查 / 暂停 / 恢复 (the resource's actions) and a
 * job's detail (the same component as /job: uptime, chart, history, screenshot) over the admin
 * routes (/api/admin/monitorJobs/{id}/uptime|stats|runs). Pushes of `/ws` topic `monitor` keep it
 * current. The registry lists of the route (jobs, runs, alerts) follow as tabs with every generic
 * feature.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { createResourceClient, type Row } from '@wanxiang/core';
import { App, Badge, Button, Space, Table, Tooltip } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { type Beat, type Job, jobReader, type MonitorPush } from '../../monitor/api';
import { msText, percentText, timeText, uptimeTone } from '../../monitor/format';
import { StatusTag } from '../../monitor/StatusTag';
import { MONITOR_TOPIC, useTopic } from '../../monitor/topic-feed';
import { BAR_SLOTS, UptimeBar } from '../../monitor/UptimeBar';
import { useServices } from '../../session/services-context';
import { RouteTabs } from './RouteTabs';
import { SearchBox } from './SearchBox';
import './boards.css';
import { definition } from '../../resources/definitions';
import { useBoardList } from '../use-board-list';

// The detail (figures, chart, history) loads when a job is opened.
const JobDetailDrawer = lazy(() => import('../../monitor/JobDetailDrawer'));

const PAGE = 20;
const POLL_MS = 30_000;

/** One row's bar and 24 h uptime, from the admin routes; reloaded when `version` moves. */
function useBeats(id: number, version: number) {
  const { http } = useServices();
  const reader = useMemo(() => jobReader(http, 'admin'), [http]);
  const [state, setState] = useState<{ beats: Beat[]; h24: number | null | undefined }>({
    beats: [],
    h24: undefined,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version is a new check to show
  useEffect(() => {
    let current = true;
    Promise.all([reader.runs(id, { limit: BAR_SLOTS }), reader.uptime(id)]).then(
      ([runs, uptime]) => current && setState({ beats: [...runs].reverse(), h24: uptime.h24 }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [reader, id, version]);
  return state;
}

/** The bar and, beside it, the 24 h uptime: one pair of requests per row. */
function BeatsCell({ id, version }: { id: number; version: number }) {
  const { beats, h24 } = useBeats(id, version);
  return (
    <Space size={12}>
      <UptimeBar beats={beats} />
      <Tooltip title="24 小时可用率">
        <span className={`wx-uptime-figure-${uptimeTone(h24)}`}>{percentText(h24)}</span>
      </Tooltip>
    </Space>
  );
}

function JobBoard() {
  const { http } = useServices();
  const { message, notification } = App.useApp();
  const client = useMemo(() => createResourceClient<Row & Job>(http, definition('monitorJobs')), [http]);
  const reader = useMemo(() => jobReader(http, 'admin'), [http]);
  const [versions, setVersions] = useState<Record<number, number>>({});
  const { page, setPage, search, rows, setRows, total, loading, reload } = useBoardList(
    client,
    PAGE,
    (list) => setVersions((v) => Object.fromEntries(list.map((r) => [r.id, (v[r.id] ?? 0) + 1]))),
  );
  const [viewing, setViewing] = useState<number | null>(null);
  const [busy, setBusy] = useState<Record<number, boolean>>({});

  const live = useTopic(MONITOR_TOPIC, (data) => {
    const push = data as MonitorPush;
    if (push?.type !== 'job' || !push.job) return;
    setRows((prev) => prev.map((r) => (r.id === push.job.id ? { ...r, ...push.job } : r)));
    setVersions((v) => (push.job.id in v ? { ...v, [push.job.id]: (v[push.job.id] ?? 0) + 1 } : v));
    if (push.alert)
      notification[push.alert.level === 'up' ? 'success' : 'error']({
        key: `alert-${push.alert.id}`,
        title: push.alert.level === 'up' ? '任务恢复' : '监控告警',
        description: push.alert.message,
      });
  });

  useEffect(() => {
    if (live) return;
    const timer = window.setInterval(() => void reload(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [live, reload]);

  const act = async (row: Job, action: 'runNow' | 'pause' | 'resume', done: string) => {
    setBusy((b) => ({ ...b, [row.id]: true }));
    try {
      const answer = (await client.action(row.id, action)) as unknown as Record<string, unknown>;
      // runNow may answer {job, run} (as /api/me/jobs/{id}/run) or the row.
      const job = (answer?.job ?? answer) as Partial<Job>;
      if (typeof job?.id === 'number')
        setRows((prev) => prev.map((r) => (r.id === job.id ? { ...r, ...job } : r)));
      setVersions((v) => ({ ...v, [row.id]: (v[row.id] ?? 0) + 1 }));
      message.success(done);
    } catch {
      // The HTTP client has told the user why (core's error catalogue).
    } finally {
      setBusy((b) => ({ ...b, [row.id]: false }));
    }
  };

  const viewed = rows.find((r) => r.id === viewing) ?? null;

  return (
    <div className="wx-monitor-board">
      <div className="wx-monitor-toolbar">
        <SearchBox placeholder="任务名称或地址" onSearch={search} />
        <Space>
          <Tooltip title={live ? '检查结果实时推送' : `每 ${POLL_MS / 1000} 秒刷新`}>
            <Badge status={live ? 'success' : 'default'} text={live ? '实时' : '定时刷新'} />
          </Tooltip>
          <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
            刷新
          </Button>
        </Space>
      </div>
      <Table<Row & Job>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 1000 }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: '暂无监控任务' }}
        columns={[
          {
            title: '任务名称',
            dataIndex: 'name',
            render: (name: string, row) => (
              <div>
                <Button type="link" style={{ padding: 0 }} onClick={() => setViewing(row.id)}>
                  {name}
                </Button>
                <div style={{ color: 'rgba(0,0,0,.45)', fontSize: 12, wordBreak: 'break-all' }}>
                  {row.url}
                </div>
              </div>
            ),
          },
          { title: '状态', dataIndex: 'status', width: 90, render: (s: string) => <StatusTag status={s} /> },
          {
            title: `最近 ${BAR_SLOTS} 次检查 · 24 小时可用率`,
            key: 'beats',
            width: 340,
            render: (_, row) => <BeatsCell id={row.id} version={versions[row.id] ?? 0} />,
          },
          { title: '响应时间', dataIndex: 'lastLatencyMs', width: 100, render: (v) => msText(v) },
          { title: '最近检查', dataIndex: 'lastCheckAt', width: 170, render: (v) => timeText(v) },
          {
            title: '操作',
            key: 'actions',
            width: 170,
            fixed: 'right',
            render: (_, row) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  loading={busy[row.id]}
                  disabled={row.status === 'paused'}
                  onClick={() => void act(row, 'runNow', `${row.name}：检查完成`)}
                >
                  立即检查
                </Button>
                {row.status === 'paused' ? (
                  <Button type="link" size="small" onClick={() => void act(row, 'resume', '已恢复')}>
                    恢复
                  </Button>
                ) : (
                  <Button type="link" size="small" onClick={() => void act(row, 'pause', '已暂停')}>
                    暂停
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      {viewed && (
        <Suspense fallback={null}>
          <JobDetailDrawer
            job={viewed}
            reader={reader}
            version={versions[viewed.id] ?? 0}
            onClose={() => setViewing(null)}
          />
        </Suspense>
      )}
    </div>
  );
}

export default function MonitorJobScreen() {
  return <RouteTabs route="monitor/job" boardTitle="任务看板" board={<JobBoard />} />;
}
