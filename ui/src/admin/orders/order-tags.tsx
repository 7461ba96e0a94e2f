/** The board's small labels: an enum of the registry as an antd Tag in its definition's colour. */
import { type FieldDef, fieldText } from '@wanxiang/core';
import { Tag } from 'antd';
import { definitionField } from '../../resources/definitions';

// Read when rendered: the orders' definition loads with the board (admin/custom-screens.ts).
const STATUS = () => definitionField('orders', 'status');
const FULFILMENT = () => definitionField('orders', 'fulfilment');
const PAY_METHOD = () => definitionField('orders', 'payMethod');

const FULFILMENT_COLOURS: Record<string, string> = { delivery: 'blue', pickup: 'gold', dineIn: 'green' };

export function EnumTag({ field, value, color }: { field: FieldDef; value: unknown; color?: string }) {
  const option = field.type === 'enum' ? field.options.find((o) => o.value === value) : undefined;
  return (
    <Tag color={color ?? option?.color} variant="outlined">
      {fieldText(field, value)}
    </Tag>
  );
}

export const StatusTag = ({ status }: { status: string }) => <EnumTag field={STATUS()} value={status} />;

export const FulfilmentTag = ({ value }: { value: string }) => (
  <EnumTag field={FULFILMENT()} value={value} color={FULFILMENT_COLOURS[value]} />
);

export function PayMethodText({ value, paid }: { value: string; paid: boolean }) {
  return (
    <span>
      {fieldText(PAY_METHOD(), value)}
      {paid ? '' : '（未支付）'}
    </span>
  );
}
