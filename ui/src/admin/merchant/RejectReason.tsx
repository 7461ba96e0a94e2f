/** The reason box under a ticked field of the review page, with its message (core's rule). */
import { AUDIT_REASON_MAX } from '@wanxiang/core';
import { Input } from 'antd';

export const AUDIT_REASON_MAX_TEXT = `，每项原因最多 ${AUDIT_REASON_MAX} 字`;

export function RejectReason({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error?: string;
  onChange: (reason: string) => void;
}) {
  return (
    <div className="wx-mr-reason">
      <Input.TextArea
        aria-label={`${label}的驳回原因`}
        placeholder={`写明「${label}」哪里有问题、应当如何修改`}
        autoSize={{ minRows: 1, maxRows: 4 }}
        value={value}
        status={error ? 'error' : undefined}
        // Counted, not cut off: a reason over the limit gets core's message instead of vanishing text.
        count={{ show: true, max: AUDIT_REASON_MAX }}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && (
        <div className="wx-mr-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}
