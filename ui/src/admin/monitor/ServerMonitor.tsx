/**
 * 服务器监控: host, process, database and request figures from GET /api/admin/server-monitor. The
 * route's loader fetches them before the screen renders; the screen re-runs it every few seconds.
 */
import { ReloadOutlined } from '@ant-design/icons';
import type { ServerMonitorFigures as ServerFigures } from '@wanxiang/core';
import { Button, Card, Col, Descriptions, Progress, Row, Space, Statistic, Switch, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useLoaderData, useRevalidator } from 'react-router-dom';
import { formatBytes, formatDuration, formatStamp, usageColor } from './format';
import { Sparkline } from './Sparkline';
import './monitor.css';

export const REFRESH_INTERVAL_MS = 5000;
const HISTORY = 30;

function Gauge({ title, percent, detail }: { title: string; percent: number | null; detail: string }) {
  return (
    <Card className="wx-monitor-gauge" size="small">
      <div className="wx-monitor-gauge-title">{title}</div>
      {percent === null ? (
        <div className="wx-monitor-gauge-na">—</div>
      ) : (
        <Progress
          type="dashboard"
          percent={percent}
          strokeColor={usageColor(percent)}
          size={120}
          format={(p) => `${(p ?? 0).toFixed(1)}%`}
        />
      )}
      <div className="wx-monitor-gauge-detail">{detail}</div>
    </Card>
  );
}

function useAutoRefresh(enabled: boolean) {
  const revalidator = useRevalidator();
  const ref = useRef(revalidator);
  ref.current = revalidator;
  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => {
      if (ref.current.state === 'idle' && document.visibilityState === 'visible')
        void ref.current.revalidate();
    }, REFRESH_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [enabled]);
  return revalidator;
}

function useHistory(figures: ServerFigures) {
  const [history, setHistory] = useState<{ at: number; cpu: number; requests: number }[]>([]);
  useEffect(() => {
    setHistory((h) =>
      h.at(-1)?.at === figures.collectedAt
        ? h
        : [
            ...h,
            {
              at: figures.collectedAt,
              cpu: figures.host.cpu.usagePercent,
              requests: figures.requests.lastMinute,
            },
          ].slice(-HISTORY),
    );
  }, [figures]);
  return history;
}

export default function ServerMonitor() {
  const figures = useLoaderData() as ServerFigures | null;
  // null: the guard is sending the visitor elsewhere.
  return figures ? <MonitorFigures figures={figures} /> : null;
}

function MonitorFigures({ figures }: { figures: ServerFigures }) {
  const [auto, setAuto] = useState(true);
  const revalidator = useAutoRefresh(auto);
  const history = useHistory(figures);
  const { host, process, database, requests } = figures;
  const disk = host.disk;
  const diskPercent =
    disk.totalBytes && disk.freeBytes !== null
      ? Math.round(((disk.totalBytes - disk.freeBytes) / disk.totalBytes) * 1000) / 10
      : null;
  const statusClasses = Object.entries(requests.byStatusClass).sort(([a], [b]) => a.localeCompare(b));

  return (
    <div className="wx-monitor">
      <div className="wx-monitor-toolbar">
        <span className="wx-monitor-updated">更新于 {formatStamp(figures.collectedAt)}</span>
        <Space>
          <span>
            自动刷新 <Switch size="small" checked={auto} onChange={setAuto} aria-label="自动刷新" />
          </span>
          <Button
            icon={<ReloadOutlined />}
            loading={revalidator.state === 'loading'}
            onClick={() => void revalidator.revalidate()}
          >
            刷新
          </Button>
        </Space>
      </div>

      <Row gutter={[16, 16]}>
        <Col xs={12} lg={6}>
          <Gauge title="主机 CPU" percent={host.cpu.usagePercent} detail={`${host.cpu.count} 核`} />
        </Col>
        <Col xs={12} lg={6}>
          <Gauge
            title="主机内存"
            percent={host.memory.usedPercent}
            detail={`${formatBytes(host.memory.totalBytes - host.memory.freeBytes)} / ${formatBytes(host.memory.totalBytes)}`}
          />
        </Col>
        <Col xs={12} lg={6}>
          <Gauge
            title="数据磁盘"
            percent={diskPercent}
            detail={`可用 ${formatBytes(disk.freeBytes)} / ${formatBytes(disk.totalBytes)}`}
          />
        </Col>
        <Col xs={12} lg={6}>
          <Card className="wx-monitor-gauge" size="small">
            <Statistic title="最近一分钟请求" value={requests.lastMinute} suffix="次" />
            <Statistic title="启动以来请求" value={requests.total} suffix="次" className="wx-monitor-total" />
          </Card>
        </Col>
      </Row>

      <Row gutter={[16, 16]} className="wx-monitor-row">
        <Col xs={24} lg={12}>
          <Card size="small" title="主机 CPU 趋势（%）">
            <Sparkline values={history.map((h) => h.cpu)} max={100} label="主机 CPU 占用趋势" />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title="每分钟请求数趋势">
            <Sparkline values={history.map((h) => h.requests)} label="每分钟请求数趋势" />
          </Card>
        </Col>
      </Row>

      <Row gutter={[16, 16]} className="wx-monitor-row">
        <Col xs={24} xl={12}>
          <Card title="主机" size="small">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'hostname', label: '主机名', children: host.hostname },
                {
                  key: 'os',
                  label: '操作系统',
                  children: `${host.platform} ${host.release}（${host.arch}）`,
                },
                { key: 'cpu', label: 'CPU', children: `${host.cpu.model || '—'} × ${host.cpu.count}` },
                {
                  key: 'load',
                  label: '系统负载',
                  children: `${host.loadAverage.map((n) => n.toFixed(2)).join(' / ')}（1 / 5 / 15 分钟）`,
                },
                { key: 'uptime', label: '运行时间', children: formatDuration(host.uptimeS) },
                { key: 'disk', label: '数据目录', children: disk.path },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title="进程" size="small">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'pid', label: 'PID', children: process.pid },
                { key: 'node', label: 'Node.js 版本', children: process.nodeVersion },
                { key: 'app', label: '应用版本', children: process.appVersion },
                { key: 'uptime', label: '运行时间', children: formatDuration(process.uptimeS) },
                {
                  key: 'cpu',
                  label: 'CPU 占用',
                  children: `${process.cpu.usagePercent.toFixed(1)}%（单核）`,
                },
                {
                  key: 'memory',
                  label: '内存',
                  children: `常驻 ${formatBytes(process.memory.rssBytes)}，堆 ${formatBytes(process.memory.heapUsedBytes)} / ${formatBytes(process.memory.heapTotalBytes)}`,
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title="数据库" size="small">
            <Descriptions
              column={1}
              size="small"
              items={[
                {
                  key: 'dialect',
                  label: '类型',
                  children: database.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL',
                },
                { key: 'version', label: '版本', children: database.version },
                { key: 'size', label: '大小', children: formatBytes(database.sizeBytes) },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title="请求" size="small">
            <Descriptions
              column={1}
              size="small"
              items={[
                { key: 'total', label: '启动以来', children: `${requests.total} 次` },
                { key: 'minute', label: '最近一分钟', children: `${requests.lastMinute} 次` },
                {
                  key: 'queue',
                  label: '数据库工作',
                  children: `进行中 ${requests.inProgress} · 排队 ${requests.waiting}（${
                    requests.concurrencyLimit > 0 ? `同时最多 ${requests.concurrencyLimit} 个` : '不限'
                  }）`,
                },
                {
                  key: 'status',
                  label: '按状态码',
                  children:
                    statusClasses.length === 0
                      ? '—'
                      : statusClasses.map(([cls, count]) => (
                          <Tag
                            key={cls}
                            color={cls.startsWith('5') ? 'red' : cls.startsWith('4') ? 'orange' : 'green'}
                          >
                            {cls}：{count}
                          </Tag>
                        )),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
