import { Tag } from 'antd';
import { statusOption } from './format';

/** A job's or a check's status as the definition colours it. */
export function StatusTag({ status }: { status: string }) {
  const { label, color } = statusOption(status);
  return (
    <Tag color={color} data-status={status}>
      {label}
    </Tag>
  );
}
