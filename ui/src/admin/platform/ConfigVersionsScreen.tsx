/**
 * sys-config/old (custom screen): the saved versions of the platform configuration, newest first.
 * Each opens as a field-by-field comparison with the current configuration (core diffConfig:
 * labels from the platformConfig definition, nested values one line per leaf), changed / added /
 * removed marked, with 只看不同 on by default; 恢复此版本 is the resource's restore action (saved
 * as a new version). The registry list follows as a tab.
 */
import { ReloadOutlined } from '@ant-design/icons';
import {
  type ConfigDiffEntry,
  type ConfigDiffKind,
  countConfigChanges,
  createResourceClient,
  diffConfig,
  formatDateTime,
  type Row,
} from '@wanxiang/core';
import { App, Button, Checkbox, Space, Table, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import './config-versions.css';
import { definition } from '../../resources/definitions';

const PAGE = 20;
// Read when rendered: the definitions load with the screen (admin/custom-screens.ts).
const configDef = () => definition('platformConfig');
const versionsDef = () => definition('configVersions');
const PLATFORM_CONFIG_ID = 1;

type Version = Row & { version: number; snapshot: Record<string, unknown> | null; savedBy: number | null };

const KINDS: Record<ConfigDiffKind, { label: string; color?: string }> = {
  changed: { label: '已修改', color: 'orange' },
  added: { label: '新增', color: 'green' },
  removed: { label: '已删除', color: 'red' },
  same: { label: '相同' },
};

function VersionDiff({ entries }: { entries: ConfigDiffEntry[] }) {
  const [onlyChanges, setOnlyChanges] = useState(true);
  const changes = countConfigChanges(entries);
  const shown = onlyChanges ? entries.filter((e) => e.kind !== 'same') : entries;
  return (
    <div className="wx-cv-diff" data-testid="config-diff">
      <div className="wx-cv-diff-head">
        <span>{changes ? `与当前配置有 ${changes} 项不同` : '与当前配置完全相同'}</span>
        <Checkbox checked={onlyChanges} onChange={(e) => setOnlyChanges(e.target.checked)}>
          只看不同
        </Checkbox>
      </div>
      <table className="wx-cv-table">
        <thead>
          <tr>
            <th>字段</th>
            <th>此版本</th>
            <th>当前配置</th>
            <th aria-label="差异" />
          </tr>
        </thead>
        <tbody>
          {shown.map((e) => (
            <tr key={e.path} className={`wx-cv-row wx-cv-${e.kind}`} data-kind={e.kind}>
              <th scope="row">{e.label}</th>
              <td className="wx-cv-old">{e.version}</td>
              <td className="wx-cv-new">{e.current}</td>
              <td className="wx-cv-kind">
                {e.kind !== 'same' && <Tag color={KINDS[e.kind].color}>{KINDS[e.kind].label}</Tag>}
              </td>
            </tr>
          ))}
          {shown.length === 0 && (
            <tr>
              <td colSpan={4} className="wx-cv-none">
                没有不同的字段
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function VersionsBoard() {
  const { http } = useServices();
  const { message, modal } = App.useApp();
  const versions = useMemo(() => createResourceClient<Version>(http, versionsDef()), [http]);
  const config = useMemo(() => createResourceClient(http, configDef()), [http]);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Version[]>([]);
  const [names, setNames] = useState<Record<string, string>>({});
  const [total, setTotal] = useState(0);
  const [current, setCurrent] = useState<Record<string, unknown> | null>(null);
  const [loading, setLoading] = useState(true);
  const [expanded, setExpanded] = useState<number[]>([]);

  const reload = useCallback(async () => {
    setLoading(true);
    const [answer, now] = await Promise.all([
      versions.list({ page, limit: PAGE, sort: '-version' }),
      config.get(PLATFORM_CONFIG_ID).catch(() => null),
    ]);
    setLoading(false);
    setCurrent(now);
    if (!answer?.success) {
      message.error(failureText(answer?.error));
      return;
    }
    setRows(answer.list);
    setTotal(answer.count);
    setNames(answer.relations.savedBy ?? {});
    // The newest version opens by itself: usually the one being looked at.
    setExpanded((prev) => (prev.length || !answer.list[0] ? prev : [answer.list[0].id]));
  }, [versions, config, page, message]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const restore = (row: Version) =>
    modal.confirm({
      title: `恢复版本 ${row.version}？`,
      content: '用这一版本覆盖当前平台设置（会保存为新版本）。',
      okText: '恢复此版本',
      cancelText: '取消',
      onOk: async () => {
        try {
          await versions.action(row.id, 'restore');
          await reload();
        } catch {
          // The HTTP client has told the user why.
        }
      },
    });

  return (
    <div className="wx-cv-board">
      <div className="wx-cv-toolbar">
        <span className="wx-cv-hint">展开一个版本，查看它与当前配置逐项的差异</span>
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          刷新
        </Button>
      </div>
      <Table<Version>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: '还没有保存过平台设置' }}
        expandable={{
          expandedRowKeys: expanded,
          onExpandedRowsChange: (keys) => setExpanded(keys as number[]),
          expandedRowRender: (r) =>
            current ? (
              <VersionDiff entries={diffConfig(configDef(), r.snapshot, current)} />
            ) : (
              <span>读取当前配置失败，请刷新重试</span>
            ),
        }}
        columns={[
          { title: '版本', dataIndex: 'version', width: 90, render: (v: number) => `v${v}` },
          {
            title: '差异',
            key: 'changes',
            render: (_, r) => {
              if (!current) return '-';
              const n = countConfigChanges(diffConfig(configDef(), r.snapshot, current));
              return n ? <Tag color="orange">{n} 项不同</Tag> : <Tag color="green">与当前相同</Tag>;
            },
          },
          {
            title: '保存人',
            dataIndex: 'savedBy',
            width: 140,
            render: (id: number | null) => (id === null ? '-' : (names[String(id)] ?? `#${id}`)),
          },
          { title: '保存时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
          {
            title: '操作',
            key: 'actions',
            width: 200,
            render: (_, r) => (
              <Space size={4}>
                <Button
                  type="link"
                  size="small"
                  onClick={() =>
                    setExpanded((prev) =>
                      prev.includes(r.id) ? prev.filter((k) => k !== r.id) : [...prev, r.id],
                    )
                  }
                >
                  {expanded.includes(r.id) ? '收起' : '查看差异'}
                </Button>
                <Button type="link" size="small" onClick={() => restore(r)}>
                  恢复此版本
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}

export default function ConfigVersionsScreen() {
  return <RouteTabs route="sys-config/old" boardTitle="版本对比" board={<VersionsBoard />} />;
}
