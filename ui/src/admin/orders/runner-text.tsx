/** How a runner reads to a dispatcher: status (the runners definition's labels), distance, load. */
import { fieldText } from '@wanxiang/core';
import { Tag } from 'antd';
import { definitionField } from '../../resources/definitions';
import type { DispatchCandidate } from './order-api';

const STATUS = () => definitionField('runners', 'status');

const colourOf = (status: string) => {
  const field = STATUS();
  return (
    (field.type === 'enum' ? field.options.find((o) => o.value === status)?.color : undefined) ?? 'default'
  );
};

export function runnerStatusTag(status: string) {
  return <Tag color={colourOf(status)}>{fieldText(STATUS(), status)}</Tag>;
}

export const distanceText = (m: number | null) =>
  m === null ? '距离未知' : m < 1000 ? `${m} m` : `${(m / 1000).toFixed(1)} km`;

/** `张三 · 空闲 · 1.2 km · 进行中 0 单`: a runner as the dispatcher chooses one. */
export function candidateLabel(c: DispatchCandidate): string {
  return `${c.name} · ${fieldText(STATUS(), c.status)} · ${distanceText(c.distanceM)} · 进行中 ${c.openDeliveries} 单`;
}
