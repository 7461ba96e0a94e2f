/**
 * api-market/api (custom screen): the APIs on sale, each with its last 30 days as charts — calls
 * per day by outcome, errors, latency — from the gateway's stats route, shown when a row is
 * expanded (the first API opens expanded). The registry lists (APIs with their form, plans)
 * follow as tabs with every generic feature.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { createResourceClient, type Row } from '@wanxiang/core';
import { Button, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import { SearchBox } from '../monitor/SearchBox';
import '../monitor/boards.css';
import { ApiStatsPanel } from './ApiStatsPanel';
import './api-market.css';
import { definition } from '../../resources/definitions';
import { useBoardList } from '../use-board-list';

const PAGE = 20;

interface ApiRow extends Row {
  code: string;
  name: string;
  handler: string;
  method: string;
  freeQuota: number | null;
  rateLimitPerMin: number;
  status: string;
}

// Read when rendered: the definitions load with the screen (admin/custom-screens.ts).
const handlers = () => {
  const field = definition('marketApis').fields.handler;
  return field?.type === 'enum' ? field.options : [];
};

function ApiBoard() {
  const { http } = useServices();
  const client = useMemo(() => createResourceClient<ApiRow>(http, definition('marketApis')), [http]);
  const { page, setPage, search, rows, total, loading, reload } = useBoardList(client, PAGE);
  const [expanded, setExpanded] = useState<readonly number[] | null>(null);

  const open = expanded ?? (rows[0] ? [rows[0].id] : []);
  return (
    <div className="wx-monitor-board">
      <div className="wx-monitor-toolbar">
        <SearchBox placeholder="接口编码或名称" onSearch={search} />
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          刷新
        </Button>
      </div>
      <Table<ApiRow>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 900 }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: '暂无 API' }}
        expandable={{
          expandedRowKeys: open as number[],
          onExpandedRowsChange: (keys) => setExpanded(keys as number[]),
          expandedRowRender: (row) => <ApiStatsPanel of="marketApis" id={row.id} />,
        }}
        columns={[
          { title: '名称', dataIndex: 'name' },
          { title: '调用路径', dataIndex: 'code', render: (code: string) => <code>/cloud/api/{code}</code> },
          {
            title: '实现',
            dataIndex: 'handler',
            render: (h: string) => {
              const option = handlers().find((o) => o.value === h);
              return <Tag color={option?.color}>{option?.label ?? h}</Tag>;
            },
          },
          {
            title: '免费额度',
            dataIndex: 'freeQuota',
            width: 110,
            render: (n: number | null) => `${n ?? 0} 次/月`,
          },
          { title: '限流', dataIndex: 'rateLimitPerMin', width: 110, render: (n: number) => `${n} 次/分钟` },
          {
            title: '状态',
            dataIndex: 'status',
            width: 80,
            render: (s: string) => (s === 'enabled' ? <Tag color="green">启用</Tag> : <Tag>停用</Tag>),
          },
        ]}
      />
    </div>
  );
}

export default function ApiScreen() {
  return <RouteTabs route="api-market/api" boardTitle="调用统计" board={<ApiBoard />} />;
}
