/** 列设置: which columns the list shows, kept per user and resource on the server. */
import { SettingOutlined } from '@ant-design/icons';
import { Badge, Button, Checkbox, Popover, Tooltip } from 'antd';
import type { ColumnDef } from './columns';

export interface ColumnSettingsProps {
  all: readonly ColumnDef[];
  visible: readonly ColumnDef[];
  /** Default columns left out for want of room (they come back with a choice of the user's). */
  leftOut?: number;
  onChange(keys: string[] | undefined): void;
}

export function ColumnSettings({ all, visible, leftOut = 0, onChange }: ColumnSettingsProps) {
  const shown = new Set(visible.map((c) => c.key));
  const toggle = (key: string, on: boolean) => {
    const next = all.filter((c) => (c.key === key ? on : shown.has(c.key))).map((c) => c.key);
    // At least one column stays.
    if (next.length > 0) onChange(next);
  };
  const content = (
    <div className="wx-column-settings">
      <div className="wx-column-settings-head">
        <span>显示列</span>
        <Button type="link" size="small" onClick={() => onChange(undefined)}>
          重置
        </Button>
      </div>
      <div className="wx-column-settings-list">
        {all.map((c) => (
          <Checkbox
            key={c.key}
            checked={shown.has(c.key)}
            disabled={shown.has(c.key) && shown.size === 1}
            onChange={(e) => toggle(c.key, e.target.checked)}
          >
            {c.title}
          </Checkbox>
        ))}
      </div>
    </div>
  );
  return (
    <Popover content={content} trigger="click" placement="bottomRight" arrow={false}>
      <Tooltip title={leftOut > 0 ? `列设置（${leftOut} 列因宽度未显示）` : '列设置'}>
        <Badge count={leftOut} size="small" color="#8c8c8c" offset={[-4, 4]}>
          <Button
            icon={<SettingOutlined />}
            aria-label={leftOut > 0 ? `列设置，${leftOut} 列未显示` : '列设置'}
          />
        </Badge>
      </Tooltip>
    </Popover>
  );
}
