/**
 * /job (监控任务, login): the signed-in user's own jobs. A table with each job's status, the bar of
 * its last 50 checks, 24 h uptime and latest response time; 新建 / 编辑 in a drawer; 立即检查,
 * 暂停 / 恢复 and 删除 per row; a job's detail (uptime 24 h / 7 d / 30 d, chart, history, screenshot)
 * in a drawer; the latest alerts under the table. Pushes of `/ws` topic `monitor:user:<id>` update
 * the rows and bars as checks happen and raise a notification on an alert; while the socket is not
 * live the list polls.
 */
import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Alert as AntAlert, Badge, Button, Card, Modal, message, Space, Table } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { AlertList } from '../../monitor/AlertList';
import { type Alert, type Job, type MonitorPush, myJobsApi } from '../../monitor/api';
import { msText, percentText, timeText, uptimeTone } from '../../monitor/format';
import { StatusTag } from '../../monitor/StatusTag';
import { userMonitorTopic, useTopic } from '../../monitor/topic-feed';
import { BAR_SLOTS, UptimeBar } from '../../monitor/UptimeBar';
import { useServices, useSession } from '../../session/services-context';
import { failureText } from '../use-remote';
import { JobForm } from './JobForm';
import { applyPush, withRun } from './job-list';
import './job.css';

// A job's detail (figures, chart, history) loads when it is opened.
const JobDetailDrawer = lazy(() => import('../../monitor/JobDetailDrawer'));

/** While pushes are not coming, the list reloads this often. */
export const POLL_MS = 30_000;

const KIND_LABEL: Record<string, string> = {
  http: 'HTTP(S)',
  keyword: '关键词',
  tcp: 'TCP',
  browser: '浏览器',
};

export default function JobScreen() {
  const { http, notices } = useServices();
  const api = useMemo(() => myJobsApi(http), [http]);
  const userId = useSession((s) => s.context.user?.id ?? null);
  const [toast, toastHolder] = message.useMessage({ top: 72 });
  const [modal, modalHolder] = Modal.useModal();
  const [jobs, setJobs] = useState<Job[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [alerts, setAlerts] = useState<Alert[]>([]);
  const [editing, setEditing] = useState<{ job: Job | null } | null>(null);
  const [viewing, setViewing] = useState<number | null>(null);
  const [versions, setVersions] = useState<Record<number, number>>({});
  const [busy, setBusy] = useState<Record<number, boolean>>({});

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const [list, latest] = await Promise.all([api.list(), api.alerts(20).catch(() => null)]);
      setJobs(list);
      if (latest) setAlerts(latest);
      setLoadError(null);
    } catch (error) {
      setLoadError(failureText(error));
    } finally {
      setLoading(false);
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  // A new check: an open detail reloads, and the row's 24 h uptime is asked again (the list's figure
  // is as of the list's load).
  const bump = (id: number) => {
    setVersions((v) => ({ ...v, [id]: (v[id] ?? 0) + 1 }));
    api.uptime(id).then(
      ({ h24 }) => setJobs((prev) => prev?.map((j) => (j.id === id ? { ...j, uptime24h: h24 } : j)) ?? prev),
      () => undefined,
    );
  };

  // The page's own notifications (platform/notices.ts, shown by the bridge in the entry): no second
  // notification instance in this chunk.
  const announce = useCallback(
    (alert: Alert) => {
      setAlerts((prev) => (prev.some((a) => a.id === alert.id) ? prev : [alert, ...prev].slice(0, 50)));
      if (alert.level === 'up') notices.notify('success', `任务恢复：${alert.message}`);
      else notices.notify(alert.level === 'down' ? 'error' : 'warning', `监控告警：${alert.message}`);
    },
    [notices],
  );

  const live = useTopic(userId === null ? null : userMonitorTopic(userId), (data) => {
    const push = data as MonitorPush;
    if (!push || typeof push !== 'object') return;
    if (push.type === 'job' && push.job) {
      setJobs((prev) => (prev ? applyPush(prev, push) : prev));
      bump(push.job.id);
    }
    if (push.alert) announce(push.alert);
  });

  // Without pushes the list catches up by itself, now and then.
  useEffect(() => {
    if (live) return;
    const timer = window.setInterval(() => void reload(), POLL_MS);
    return () => window.clearInterval(timer);
  }, [live, reload]);

  const act = async (job: Job, what: () => Promise<void>) => {
    setBusy((b) => ({ ...b, [job.id]: true }));
    try {
      await what();
    } catch (error) {
      toast.error(failureText(error));
    } finally {
      setBusy((b) => ({ ...b, [job.id]: false }));
    }
  };

  const replace = (job: Job) =>
    setJobs(
      (prev) =>
        prev?.map((j) =>
          j.id === job.id ? { ...j, ...job, recent: j.recent, uptime24h: j.uptime24h } : j,
        ) ?? prev,
    );

  const runNow = (job: Job) =>
    act(job, async () => {
      const { job: checked, run } = await api.run(job.id);
      setJobs(
        (prev) =>
          prev?.map((j) => (j.id === job.id ? withRun({ ...j, ...checked, recent: j.recent }, run) : j)) ??
          prev,
      );
      bump(job.id);
      const text = `${job.name}：${run.status === 'up' ? '正常' : run.status === 'down' ? '故障' : '待确认'}`;
      if (run.status === 'up') toast.success(`检查完成，${text}`);
      else toast.warning(`检查完成，${text}${run.message ? `（${run.message}）` : ''}`);
      // An alert of this check arrives by push; without pushes, fetch the list of alerts.
      if (!live) void api.alerts(20).then(setAlerts, () => undefined);
    });

  const pauseOrResume = (job: Job) =>
    act(job, async () => {
      const next = job.status === 'paused' ? await api.resume(job.id) : await api.pause(job.id);
      replace(next);
      toast.success(job.status === 'paused' ? '已恢复' : '已暂停');
    });

  const remove = (job: Job) =>
    act(job, async () => {
      await api.remove(job.id);
      setJobs((prev) => prev?.filter((j) => j.id !== job.id) ?? prev);
      if (viewing === job.id) setViewing(null);
      toast.success('已删除');
    });

  const confirmRemove = (job: Job) =>
    modal.confirm({
      title: `删除任务“${job.name}”？`,
      content: '删除后不再检查，它的检查记录也不再显示。',
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => remove(job),
    });

  const save = async (body: Record<string, unknown>) => {
    try {
      if (editing?.job) {
        replace(await api.update(editing.job.id, body));
        toast.success('已保存');
      } else {
        const created = await api.create(body);
        setJobs((prev) => [{ recent: [], uptime24h: null, ...created }, ...(prev ?? [])]);
        toast.success('已创建，稍后开始检查');
      }
      setEditing(null);
    } catch (error) {
      toast.error(failureText(error));
      throw error;
    }
  };

  const viewed = jobs?.find((j) => j.id === viewing) ?? null;

  return (
    <section className="wx-public-screen wx-job-screen">
      {toastHolder}
      {modalHolder}
      <div className="wx-job-head">
        <h1 className="wx-public-screen-title">监控任务</h1>
        <Space wrap>
          <span title={live ? '检查结果实时推送' : `每 ${POLL_MS / 1000} 秒刷新`}>
            <Badge status={live ? 'success' : 'default'} text={live ? '实时' : '定时刷新'} />
          </span>
          <Button icon={<ReloadOutlined />} onClick={() => void reload()} loading={loading && jobs !== null}>
            刷新
          </Button>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ job: null })}>
            新建任务
          </Button>
        </Space>
      </div>
      {loadError && (
        <AntAlert
          type="error"
          showIcon
          title={loadError}
          action={<Button onClick={() => void reload()}>重试</Button>}
          style={{ marginBottom: 16 }}
        />
      )}
      <Card className="wx-job-card">
        <Table<Job>
          rowKey="id"
          dataSource={jobs ?? []}
          loading={jobs === null && loading}
          pagination={false}
          scroll={{ x: 900 }}
          locale={{ emptyText: '还没有监控任务：点“新建任务”添加一个网址或端口' }}
          columns={[
            {
              title: '任务名称',
              dataIndex: 'name',
              width: 240,
              render: (name: string, job) => (
                <div>
                  <Button type="link" className="wx-job-name" onClick={() => setViewing(job.id)}>
                    {name}
                  </Button>
                  <div className="wx-job-url">
                    {KIND_LABEL[job.kind] ?? job.kind} · {job.url}
                  </div>
                </div>
              ),
            },
            {
              title: '状态',
              dataIndex: 'status',
              width: 90,
              render: (s: string) => <StatusTag status={s} />,
            },
            {
              title: `最近 ${BAR_SLOTS} 次检查`,
              key: 'recent',
              width: 260,
              render: (_, job) => <UptimeBar beats={job.recent ?? []} />,
            },
            {
              title: '24 小时可用率',
              dataIndex: 'uptime24h',
              width: 120,
              render: (v: number | null | undefined) => (
                <span className={`wx-uptime-figure-${uptimeTone(v)}`}>{percentText(v)}</span>
              ),
            },
            { title: '响应时间', dataIndex: 'lastLatencyMs', width: 100, render: (v) => msText(v) },
            { title: '最近检查', dataIndex: 'lastCheckAt', width: 170, render: (v) => timeText(v) },
            {
              title: '操作',
              key: 'actions',
              width: 260,
              fixed: 'right',
              render: (_, job) => (
                <Space size={0} wrap>
                  <Button
                    type="link"
                    size="small"
                    loading={busy[job.id]}
                    disabled={job.status === 'paused'}
                    onClick={() => void runNow(job)}
                  >
                    立即检查
                  </Button>
                  <Button type="link" size="small" onClick={() => void pauseOrResume(job)}>
                    {job.status === 'paused' ? '恢复' : '暂停'}
                  </Button>
                  <Button type="link" size="small" onClick={() => setEditing({ job })}>
                    编辑
                  </Button>
                  <Button type="link" size="small" danger onClick={() => confirmRemove(job)}>
                    删除
                  </Button>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <section aria-label="最近告警">
        <Card title="最近告警" className="wx-job-card wx-job-alerts">
          <AlertList alerts={alerts} />
        </Card>
      </section>
      <JobForm
        open={editing !== null}
        job={editing?.job ?? null}
        onClose={() => setEditing(null)}
        onSubmit={save}
      />
      {viewed && (
        <Suspense fallback={null}>
          <JobDetailDrawer
            job={viewed}
            reader={api}
            version={versions[viewed.id] ?? 0}
            onClose={() => setViewing(null)}
            extra={
              <Button
                type="primary"
                loading={busy[viewed.id]}
                disabled={viewed.status === 'paused'}
                onClick={() => void runNow(viewed)}
              >
                立即检查
              </Button>
            }
          />
        </Suspense>
      )}
    </section>
  );
}
