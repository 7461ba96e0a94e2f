/**
 * The 操作 cell of a row: 详情, the definition's related lists (a rule's 发放记录), 编辑, the
 * definition's actions that apply to the row's state, 删除.
 * Past four, the rest go under 更多. Without `<area>:write` the writing ones are disabled.
 */
import { DownOutlined } from '@ant-design/icons';
import {
  type ActionDef,
  applicableActions,
  canDelete,
  canUpdate,
  type RelatedList,
  type ResourceDef,
  type Row,
} from '@wanxiang/core';
import { Button, Dropdown } from 'antd';

export interface RowCommand {
  key: string;
  label: string;
  danger?: boolean;
  /** Needs `<area>:write`. */
  writes: boolean;
  run(): void;
}

export interface RowHandlers {
  view(row: Row): void;
  /** Opens another resource's list filtered to this row (the definition's `related`). */
  related(row: Row, related: RelatedList): void;
  edit(row: Row): void;
  remove(row: Row): void;
  action(row: Row, action: ActionDef): void;
}

const INLINE = 4;

export function rowCommands(def: ResourceDef, row: Row, handlers: RowHandlers): RowCommand[] {
  return [
    { key: 'view', label: '详情', writes: false, run: () => handlers.view(row) },
    ...(def.related ?? []).map((related) => ({
      key: `related:${related.resource}:${related.field}`,
      label: related.label,
      writes: false,
      run: () => handlers.related(row, related),
    })),
    ...(canUpdate(def) ? [{ key: 'edit', label: '编辑', writes: true, run: () => handlers.edit(row) }] : []),
    ...applicableActions(def, row).map((action) => ({
      key: `action:${action.name}`,
      label: action.label,
      danger: action.danger,
      writes: true,
      run: () => handlers.action(row, action),
    })),
    ...(canDelete(def)
      ? [{ key: 'delete', label: '删除', danger: true, writes: true, run: () => handlers.remove(row) }]
      : []),
  ];
}

export function RowActions({ commands, writable }: { commands: RowCommand[]; writable: boolean }) {
  const inline = commands.length > INLINE ? commands.slice(0, INLINE - 1) : commands;
  const more = commands.length > INLINE ? commands.slice(INLINE - 1) : [];
  const button = (c: RowCommand) => (
    <Button
      key={c.key}
      type="link"
      size="small"
      danger={c.danger}
      disabled={c.writes && !writable}
      title={c.writes && !writable ? '没有修改权限' : undefined}
      onClick={c.run}
    >
      {c.label}
    </Button>
  );
  return (
    <div className="wx-row-actions">
      {inline.map(button)}
      {more.length > 0 && (
        <Dropdown
          menu={{
            items: more.map((c) => ({
              key: c.key,
              label: c.label,
              danger: c.danger,
              disabled: c.writes && !writable,
            })),
            onClick: ({ key }) => more.find((c) => c.key === key)?.run(),
          }}
        >
          <Button type="link" size="small">
            更多 <DownOutlined />
          </Button>
        </Dropdown>
      )}
    </div>
  );
}
