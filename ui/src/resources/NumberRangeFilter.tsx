/** A number or money range filter (`_gte`/`_lte`); money in yuan. Loaded with the first list that has one. */
import type { FieldDef } from '@wanxiang/core';
import { InputNumber, Space } from 'antd';
import type { ControlProps } from './control-props';

type Range = (number | undefined)[];

export default function NumberRangeFilter({
  field,
  id,
  value,
  onChange,
}: ControlProps & { field: FieldDef }) {
  const [min, max] = (Array.isArray(value) ? value : []) as Range;
  const money = field.type === 'money';
  const common = {
    prefix: money ? '¥' : undefined,
    precision: money ? 2 : undefined,
    className: 'wx-number-range-input',
  };
  const set = (next: Range) => onChange(next[0] === undefined && next[1] === undefined ? undefined : next);
  return (
    <Space.Compact className="wx-number-range" block>
      <InputNumber
        {...common}
        id={id}
        value={min ?? null}
        placeholder="最小"
        aria-label={`${field.label}最小`}
        onChange={(v) => set([v ?? undefined, max])}
      />
      <span className="wx-number-range-sep">~</span>
      <InputNumber
        {...common}
        value={max ?? null}
        placeholder="最大"
        aria-label={`${field.label}最大`}
        onChange={(v) => set([min, v ?? undefined])}
      />
    </Space.Compact>
  );
}
