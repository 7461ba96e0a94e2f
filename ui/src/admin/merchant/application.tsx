/** What the review board and the review page share: the application row, its definition, its state tag. */
import { type EnumOption, MERCHANT_STATUS, type Row } from '@wanxiang/core';
import { Tag } from 'antd';
import { definition } from '../../resources/definitions';

export const NONE = '—';
// Read when rendered: the definitions load with the screen (admin/custom-screens.ts).
export const applications = () => definition('merchantApplications');

export type Application = Row & {
  number: string;
  status: string;
  auditDetail?: { field: string; reason: string }[] | null;
};

export const statusOption = (status: string): EnumOption | undefined =>
  MERCHANT_STATUS.find((o) => o.value === status);

export function StatusTag({ status }: { status: string }) {
  const option = statusOption(status);
  return <Tag color={option?.color}>{option?.label ?? status}</Tag>;
}
