/** 导入记录: every access-log import, newest first (GET /api/admin/cdnImports). */
import { chinaHourLabel, formatBytes, formatDateTime } from '@wanxiang/core';
import { Alert, Button, Table, Tag } from 'antd';
import { failureText, useRemote } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { fetchImports, type ImportRecord } from './cdn-api';

export function ImportHistory({ version }: { version: number }) {
  const { http } = useServices();
  const [remote, retry] = useRemote(() => fetchImports(http), [http, version], { keepData: true });
  if (remote.state === 'failed' && !remote.data)
    return (
      <Alert
        type="error"
        showIcon
        title={`导入记录加载失败：${failureText(remote.error)}`}
        action={<Button onClick={retry}>重试</Button>}
      />
    );
  return (
    <Table<ImportRecord>
      rowKey="id"
      size="middle"
      loading={remote.state === 'loading'}
      dataSource={remote.data ?? []}
      locale={{ emptyText: '还没有导入过日志' }}
      scroll={{ x: 1000 }}
      columns={[
        { title: '导入时间', dataIndex: 'at', width: 150, render: (v) => formatDateTime(v) },
        { title: '域名', dataIndex: 'domain', width: 180 },
        { title: '文件', dataIndex: 'fileName', ellipsis: true, render: (v) => v ?? '-' },
        { title: '行数', dataIndex: 'lines', width: 90, render: (v: number) => v.toLocaleString('zh-CN') },
        {
          title: '格式错误',
          dataIndex: 'malformed',
          width: 90,
          render: (v: number) => (v > 0 ? <Tag color="orange">{v.toLocaleString('zh-CN')}</Tag> : 0),
        },
        {
          title: '请求数',
          dataIndex: 'requests',
          width: 100,
          render: (v: number) => v.toLocaleString('zh-CN'),
        },
        { title: '流量', dataIndex: 'bytes', width: 100, render: (v: number) => formatBytes(v) },
        {
          title: '时段',
          key: 'span',
          width: 260,
          render: (_, r) =>
            r.firstHour && r.lastHour
              ? `${chinaHourLabel(Date.parse(r.firstHour))} — ${chinaHourLabel(Date.parse(r.lastHour))}`
              : '-',
        },
        {
          title: '缓存字段',
          dataIndex: 'hasCache',
          width: 90,
          render: (v: boolean) => (v ? <Tag color="green">有</Tag> : <Tag>无</Tag>),
        },
      ]}
    />
  );
}
