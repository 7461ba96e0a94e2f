/**
 * One resource's list screen, entirely from its registry definition: the filter bar, a toolbar
 * (新建, 批量删除, 导出 CSV, 常用筛选, 列设置, 刷新), the table with server paging and sorting, and
 * the create/edit form, detail drawer and action dialogs. State and calls live in the controller.
 */
import {
  DeleteOutlined,
  DownloadOutlined,
  PlusOutlined,
  ReloadOutlined,
  WarningFilled,
} from '@ant-design/icons';
import {
  type ActionDef,
  CONFIRM_WIDTH,
  can,
  canCreate,
  canDelete,
  collectionActions,
  describeFailure,
  type RelatedList,
  type ResourceDef,
  type Row,
} from '@wanxiang/core';
import { App, Button, Empty, Space, Table, type TableProps, Tooltip } from 'antd';
import { Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { readTablePreference, tableKey } from '../preferences/keys';
import { usePreference } from '../preferences/PreferencesContext';
import { useServices, useSession } from '../session/services-context';
import { ColumnSettings } from './ColumnSettings';
import { columnsOf, visibleColumns } from './columns';
import { loadDefinitions, loadedDefinition, routeListings } from './definitions';
import { exportCsv } from './export-csv';
import { FieldValue } from './FieldValue';
import { FilterBar } from './FilterBar';
import { unreportedFailure } from './failures';
import { ActionInputModal, prefetchDialogs, RecordDrawer, ResourceForm } from './lazy-parts';
import { RowActions, rowCommands } from './RowActions';
import { rowName } from './row-name';
import { SavedFilters } from './SavedFilters';
import { useColumnsThatFit } from './use-columns-that-fit';
import { type ListLocation, useListController } from './useListController';

const NO_PERMISSIONS: readonly string[] = [];
const PAGE_SIZES = ['10', '20', '50', '100'];

export interface ResourceViewProps {
  def: ResourceDef;
  location: ListLocation;
  /** The toolbar's heading (the screen's title when it lists one resource). */
  title: string;
  /** Filters the screen always applies (a review queue's status); not in the filter bar. */
  fixedFilters?: Readonly<Record<string, string>>;
}

const NO_FILTERS: Readonly<Record<string, string>> = {};

export function ResourceView({ def, location, title, fixedFilters = NO_FILTERS }: ResourceViewProps) {
  const controller = useListController(def, location, { fixedFilters });
  const { http } = useServices();
  const { message, modal } = App.useApp();
  const permissions = useSession((s) => s.context.user?.permissions ?? NO_PERMISSIONS);
  const writable = can(permissions, def.area, 'write');
  const [tablePreference, setTablePreference] = usePreference(tableKey(def.name), readTablePreference);
  const allColumns = useMemo(() => columnsOf(def), [def]);
  const chosenColumns = visibleColumns(allColumns, tablePreference?.columns);
  const tableBox = useRef<HTMLDivElement>(null);
  const selectable = canDelete(def) && writable;
  // Without a column choice of the user's, the defaults that fit beside the fixed 操作 column.
  const { shown: shownColumns, left: leftOut } = useColumnsThatFit(tableBox, {
    def,
    columns: chosenColumns,
    auto: tablePreference?.columns === undefined,
    rows: controller.rows,
    leading: selectable ? 1 : 0,
  });

  const [form, setForm] = useState<{ row: Row | null } | null>(null);
  const [viewing, setViewing] = useState<Row | null>(null);
  const [inputAction, setInputAction] = useState<{ row: Row | null; action: ActionDef } | null>(null);
  const navigate = useNavigate();
  const [exporting, setExporting] = useState(false);

  const report = (error: unknown, silent = false) => {
    const text = unreportedFailure(error, silent);
    if (text) message.error(text);
  };

  const runAction = async (row: Row, action: ActionDef) => {
    try {
      await controller.runAction(row, action.name);
    } catch (error) {
      report(error);
    }
  };

  const runCollection = async (action: ActionDef) => {
    try {
      await controller.runCollectionAction(action.name);
    } catch (error) {
      report(error);
    }
  };

  /** A toolbar action on the whole list: its form, or its confirmation, or at once. */
  const startCollection = (action: ActionDef) => {
    if (action.input) setInputAction({ row: null, action });
    else if (action.confirm)
      modal.confirm({
        title: action.label,
        content: action.confirm,
        okText: action.label,
        okButtonProps: { danger: action.danger },
        cancelText: '取消',
        width: CONFIRM_WIDTH,
        onOk: () => runCollection(action),
      });
    else void runCollection(action);
  };

  const handlers = {
    view: (row: Row) => setViewing(row),
    related: (row: Row, related: RelatedList) => {
      // The other resource's screen, filtered to this row (its tab when it shares the screen).
      void (async () => {
        await loadDefinitions([related.resource]);
        const target = loadedDefinition(related.resource);
        if (!target?.route) return;
        const first = (await routeListings(target.route))[0]?.def.name;
        const params = new URLSearchParams({ [related.field]: String(row.id) });
        if (first && first !== target.name) params.set('tab', target.name);
        navigate(`/admin/${target.route}?${params.toString()}`);
      })().catch(report);
    },
    edit: (row: Row) => setForm({ row }),
    remove: (row: Row) =>
      modal.confirm({
        title: `删除${def.title}`,
        content: `确定删除“${rowName(def, row)}”吗？${def.softDelete ? '' : '删除后不可恢复。'}`,
        okText: '删除',
        okButtonProps: { danger: true },
        cancelText: '取消',
        width: CONFIRM_WIDTH,
        onOk: async () => {
          try {
            await controller.remove([row.id]);
          } catch (error) {
            report(error);
          }
        },
      }),
    action: (row: Row, action: ActionDef) => {
      if (action.input) {
        setInputAction({ row, action });
      } else if (action.confirm) {
        modal.confirm({
          title: action.label,
          content: action.confirm,
          okText: action.label,
          okButtonProps: { danger: action.danger },
          cancelText: '取消',
          width: CONFIRM_WIDTH,
          onOk: () => runAction(row, action),
        });
      } else {
        void runAction(row, action);
      }
    },
  };

  const removeSelected = () => {
    const ids = controller.selectedIds;
    modal.confirm({
      title: `批量删除${def.title}`,
      content: `确定删除选中的 ${ids.length} 条记录吗？${def.softDelete ? '' : '删除后不可恢复。'}`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      width: CONFIRM_WIDTH,
      onOk: async () => {
        try {
          await controller.remove(ids);
        } catch (error) {
          report(error, true);
        }
      },
    });
  };

  const download = async () => {
    setExporting(true);
    try {
      const name = await exportCsv(http, controller.client, controller.params);
      message.success(`已导出 ${name}`);
    } catch (error) {
      report(error);
    } finally {
      setExporting(false);
    }
  };

  // Only an order the user chose is marked: the default one (newest first) needs no arrow, and a
  // first click on any column then sorts it descending.
  const [sortField, sortDesc] = useMemo(() => {
    const spec = controller.state.sort?.split(',')[0] ?? '';
    return spec.startsWith('-') ? [spec.slice(1), true] : [spec, false];
  }, [controller.state.sort]);

  const columns: TableProps<Row>['columns'] = [
    ...shownColumns.map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: c.title,
      // The type's width as a floor: the table sizes columns to their content (max-content), so a
      // short name takes little room and a long address is cut with an ellipsis (see resources.css).
      minWidth: c.width,
      align: c.align,
      sorter: c.sortable,
      sortOrder: c.key === sortField ? (sortDesc ? ('descend' as const) : ('ascend' as const)) : null,
      sortDirections: ['descend' as const, 'ascend' as const, null],
      render: (value: unknown) => (
        <FieldValue name={c.key} field={c.field} value={value} relations={controller.relations} />
      ),
    })),
    {
      key: 'actions',
      title: '操作',
      fixed: 'end' as const,
      // As wide as the row's commands (nowrap): a width for the widest set a row could have
      // would take room from the data columns on every page.
      render: (_: unknown, row: Row) => (
        <RowActions commands={rowCommands(def, row, handlers)} writable={writable} />
      ),
    },
  ];

  const onChange: TableProps<Row>['onChange'] = (pagination, _filters, sorter, extra) => {
    if (extra.action === 'sort') {
      const one = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = one?.order ? String(one.columnKey ?? one.field) : null;
      controller.setSort(field, one?.order === 'descend');
    } else if (extra.action === 'paginate') {
      controller.setPage(pagination.current ?? 1, pagination.pageSize);
    }
  };

  const empty = controller.error ? (
    <div className="wx-list-error" role="alert">
      <WarningFilled className="wx-list-error-icon" />
      <div className="wx-list-error-title">列表加载失败</div>
      <div className="wx-list-error-message">{describeFailure(controller.error).message}</div>
      <Button type="primary" onClick={controller.refetch}>
        重试
      </Button>
    </div>
  ) : (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={controller.filtered ? '没有符合条件的记录' : `暂无${def.title}`}
    />
  );

  const loaded = controller.loaded;
  useEffect(() => {
    if (loaded) prefetchDialogs();
  }, [loaded]);

  return (
    <div className="wx-resource" data-resource={def.name}>
      <FilterBar controller={controller} />
      <div className="wx-resource-table" ref={tableBox}>
        <div className="wx-table-toolbar">
          <h2 className="wx-table-title">{title}</h2>
          <Space wrap>
            {selectable && controller.selectedIds.length > 0 && (
              <Button danger icon={<DeleteOutlined />} onClick={removeSelected}>
                批量删除（{controller.selectedIds.length}）
              </Button>
            )}
            {collectionActions(def).map((action) => (
              <Button
                key={action.name}
                danger={action.danger}
                disabled={!writable}
                title={writable ? undefined : '没有修改权限'}
                onClick={() => startCollection(action)}
              >
                {action.label}
              </Button>
            ))}
            {canCreate(def) && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                disabled={!writable}
                title={writable ? undefined : '没有新建权限'}
                onClick={() => setForm({ row: null })}
              >
                新建
              </Button>
            )}
            <Button icon={<DownloadOutlined />} loading={exporting} onClick={download}>
              导出 CSV
            </Button>
            <SavedFilters controller={controller} />
            <Tooltip title="刷新">
              <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={controller.refetch} />
            </Tooltip>
            <ColumnSettings
              all={allColumns}
              visible={shownColumns}
              leftOut={leftOut}
              onChange={(keys) => setTablePreference({ ...tablePreference, columns: keys })}
            />
          </Space>
        </div>
        <Table<Row>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={controller.rows}
          loading={controller.loading}
          onChange={onChange}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: controller.loading && !controller.loaded ? ' ' : empty }}
          rowSelection={
            selectable
              ? {
                  selectedRowKeys: controller.selectedIds,
                  onChange: (keys) => controller.setSelectedIds(keys.map(Number)),
                  columnWidth: 48,
                }
              : undefined
          }
          pagination={{
            current: controller.state.page,
            pageSize: controller.params.limit,
            total: controller.total,
            showSizeChanger: true,
            pageSizeOptions: PAGE_SIZES,
            showTotal: (total) => `共 ${total} 条`,
            hideOnSinglePage: false,
          }}
        />
      </div>
      {/* The dialogs' chunk arrives on the first use (or sooner, prefetched). */}
      <Suspense fallback={null}>
        {form && (
          <ResourceForm
            controller={controller}
            row={form.row}
            relations={controller.relations}
            onClose={() => setForm(null)}
          />
        )}
        {viewing && (
          <RecordDrawer
            def={def}
            row={viewing}
            relations={controller.relations}
            onClose={() => setViewing(null)}
          />
        )}
        {inputAction && (
          <ActionInputModal
            controller={controller}
            row={inputAction.row}
            action={inputAction.action}
            onClose={() => setInputAction(null)}
          />
        )}
      </Suspense>
    </div>
  );
}
