/** 详情: every readable field of one row, including those the list hides. */
import {
  type FieldDef,
  type Relations,
  type ResourceDef,
  type Row,
  readableFields,
  SYSTEM_FIELD_DEFS,
} from '@wanxiang/core';
import { Descriptions, Drawer } from 'antd';
import { useScreenActive } from '../admin/tabs/screen-location';
import { FieldValue } from './FieldValue';
import { SCREEN_DRAWER_STYLE } from './ResourceForm';
import { rowName } from './row-name';

export function RecordDrawer({
  def,
  row,
  relations,
  onClose,
}: {
  def: ResourceDef;
  row: Row;
  relations: Relations;
  onClose(): void;
}) {
  const shown = useScreenActive();
  const system = SYSTEM_FIELD_DEFS as Record<string, FieldDef>;
  const fields: [string, FieldDef][] = [
    ['id', system.id as FieldDef],
    ...readableFields(def),
    ['createdAt', system.createdAt as FieldDef],
    ['updatedAt', system.updatedAt as FieldDef],
  ];
  return (
    <Drawer
      open={shown}
      title={`${def.title}详情：${rowName(def, row)}`}
      size={640}
      onClose={onClose}
      rootStyle={SCREEN_DRAWER_STYLE}
      className="wx-record-drawer"
    >
      <Descriptions
        bordered
        column={1}
        size="small"
        className="wx-record"
        styles={{ label: { width: 128 } }}
        items={fields.map(([name, field]) => ({
          key: name,
          label: field.label,
          children: <FieldValue name={name} field={field} value={row[name]} relations={relations} full />,
        }))}
      />
    </Drawer>
  );
}
