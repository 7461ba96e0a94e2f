/**
 * One application as the review page (审核 / 查看 on the board): the applicant's four sections,
 * secrets shown only masked; 通过 and the later steps are the machine's transitions from the row's
 * state (core merchantReviewActions); 驳回 puts a checkbox beside every field — each ticked field
 * gets its own reason, checked by core's validateRejection before sending (the server applies the
 * same rule) and sent as auditDetail [{field, reason}].
 *
 * Its own lazy chunk, loaded when an application is opened: core's merchant review module shares a
 * chunk with the public join form's zod validation (26.8 KB gzip), which the board does not need.
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  type ActionDef,
  createResourceClient,
  type FieldDef,
  formatDateTime,
  MERCHANT_REVIEW_SECTIONS,
  merchantDisplayField,
  merchantFieldLabel,
  merchantReviewActions,
  validateRejection,
} from '@wanxiang/core';
import { App, Button, Checkbox, Space, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useServices } from '../../session/services-context';
import { type Application, applications, NONE, StatusTag, statusOption } from './application';
import { AUDIT_REASON_MAX_TEXT, RejectReason } from './RejectReason';
import './merchant-review.css';

const fieldOf = (name: string): FieldDef | undefined => applications().fields[name];

/** A stored value as a reviewer reads it: option labels, the licence as a picture, masked secrets. */
function FieldValue({ row, field }: { row: Application; field: string }) {
  const shown = merchantDisplayField(field);
  const value = row[shown];
  const def = fieldOf(field);
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length))
    return <span className="wx-mr-empty">{NONE}</span>;
  if (def?.type === 'image' && typeof value === 'string')
    return (
      <a href={value} target="_blank" rel="noreferrer" className="wx-mr-licence">
        <img src={value} alt={def.label} />
      </a>
    );
  if (def?.type === 'enum') return <>{def.options.find((o) => o.value === value)?.label ?? String(value)}</>;
  if (def?.type === 'enumList' && Array.isArray(value))
    return (
      <Space size={4} wrap>
        {value.map((v) => (
          <Tag key={String(v)}>{def.options.find((o) => o.value === v)?.label ?? String(v)}</Tag>
        ))}
      </Space>
    );
  if (shown !== field) return <span className="wx-mr-masked">{String(value)}</span>;
  return <>{String(value)}</>;
}

export default function ApplicationReview({ id, onBack }: { id: number; onBack: () => void }) {
  const { http } = useServices();
  const { modal } = App.useApp();
  const client = useMemo(() => createResourceClient<Application>(http, applications()), [http]);
  const [row, setRow] = useState<Application | null>(null);
  const [busy, setBusy] = useState(false);
  const [rejecting, setRejecting] = useState(false);
  /** Ticked fields and their reasons (a field present = ticked). */
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const load = useCallback(async () => {
    try {
      setRow(await client.get(id));
    } catch {
      // The HTTP client has told the user why.
    }
  }, [client, id]);
  useEffect(() => {
    void load();
  }, [load]);

  if (!row) return <div className="wx-mr-loading">加载中…</div>;
  const actions = merchantReviewActions(row);

  const run = async (action: ActionDef, input?: Record<string, unknown>) => {
    setBusy(true);
    try {
      const updated = await client.action(row.id, action.name, input);
      setRow((prev) => ({ ...(prev as Application), ...updated }));
      // The HTTP client shows the server's success notice (审核通过成功 …); no second toast.
      setRejecting(false);
      setReasons({});
      setErrors({});
    } catch {
      // The HTTP client has shown the server's message (a 409 names the state problem).
      void load();
    } finally {
      setBusy(false);
    }
  };

  const confirmRun = (action: ActionDef) =>
    modal.confirm({
      title: `${buttonText(action)}申请 ${row.number}？`,
      content: action.confirm ?? `将进入「${nextStateLabel(action)}」。`,
      okText: buttonText(action),
      okButtonProps: { danger: action.danger },
      cancelText: '取消',
      onOk: () => run(action),
    });

  const toggle = (field: string, ticked: boolean) => {
    setReasons((prev) => {
      const next = { ...prev };
      if (ticked) next[field] = next[field] ?? '';
      else delete next[field];
      return next;
    });
    setErrors((prev) => {
      const { [field]: _, auditDetail: __, ...rest } = prev;
      return rest;
    });
  };

  const submitRejection = () => {
    const order = MERCHANT_REVIEW_SECTIONS.flatMap((s) => s.fields);
    const detail = order.filter((f) => f in reasons).map((field) => ({ field, reason: reasons[field] }));
    const checked = validateRejection(detail);
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    const reject = actions.find((a) => a.name === 'reject');
    if (reject) void run(reject, { auditDetail: checked.value });
  };

  const ticked = Object.keys(reasons).length;
  const previous = row.status === 'rejected' && Array.isArray(row.auditDetail) ? row.auditDetail : [];

  return (
    <div className="wx-mr-review" data-testid="merchant-review">
      <div className="wx-mr-head">
        <Button icon={<ArrowLeftOutlined />} onClick={onBack}>
          返回列表
        </Button>
        <h3 className="wx-mr-title">
          {String(row.shortName ?? '')} <span className="wx-mr-number">{row.number}</span>
        </h3>
        <StatusTag status={row.status} />
        <span className="wx-mr-time">
          提交于 {row.submittedAt ? formatDateTime(String(row.submittedAt)) : NONE} · 更新于{' '}
          {formatDateTime(row.updatedAt)}
        </span>
      </div>

      {previous.length > 0 && (
        <div className="wx-mr-previous" role="note">
          <b>已驳回，等待申请人修改：</b>
          <ol>
            {previous.map((d) => (
              <li key={d.field}>
                {merchantFieldLabel(d.field)}：{d.reason}
              </li>
            ))}
          </ol>
        </div>
      )}

      {MERCHANT_REVIEW_SECTIONS.map((section) => (
        <section key={section.key} className="wx-mr-section" aria-label={section.title}>
          <h4>
            {section.title} <small>{section.description}</small>
          </h4>
          <dl>
            {section.fields.map((field) => {
              const label = merchantFieldLabel(field);
              const isTicked = field in reasons;
              return (
                <div key={field} className={isTicked ? 'wx-mr-row wx-mr-row-ticked' : 'wx-mr-row'}>
                  <dt>
                    {rejecting ? (
                      <Checkbox
                        checked={isTicked}
                        onChange={(e) => toggle(field, e.target.checked)}
                        aria-label={`驳回：${label}`}
                      >
                        {label}
                      </Checkbox>
                    ) : (
                      label
                    )}
                  </dt>
                  <dd>
                    <FieldValue row={row} field={field} />
                    {rejecting && isTicked && (
                      <RejectReason
                        label={label}
                        value={reasons[field] ?? ''}
                        error={errors[field]}
                        onChange={(reason) => {
                          setReasons((prev) => ({ ...prev, [field]: reason }));
                          if (errors[field]) setErrors(({ [field]: _, ...rest }) => rest);
                        }}
                      />
                    )}
                  </dd>
                </div>
              );
            })}
          </dl>
        </section>
      ))}

      <div className="wx-mr-actions">
        {rejecting ? (
          <>
            <span className="wx-mr-count">
              已勾选 {ticked} 项{AUDIT_REASON_MAX_TEXT}
            </span>
            {errors.auditDetail && (
              <span className="wx-mr-error" role="alert">
                {errors.auditDetail}
              </span>
            )}
            <Space>
              <Button
                onClick={() => {
                  setRejecting(false);
                  setReasons({});
                  setErrors({});
                }}
              >
                取消
              </Button>
              <Button type="primary" danger loading={busy} onClick={submitRejection}>
                提交驳回
              </Button>
            </Space>
          </>
        ) : actions.length === 0 ? (
          <span className="wx-mr-count">
            {row.status === 'finished' ? '进件已完成' : '申请已作废'}，没有可进行的操作
          </span>
        ) : (
          <Space wrap>
            {actions.map((action) =>
              action.name === 'reject' ? (
                <Button key="reject" danger onClick={() => setRejecting(true)}>
                  驳回
                </Button>
              ) : (
                <Button
                  key={action.name}
                  type={action.danger ? 'default' : 'primary'}
                  danger={action.danger}
                  loading={busy}
                  onClick={() => confirmRun(action)}
                >
                  {buttonText(action)}
                </Button>
              ),
            )}
          </Space>
        )}
      </div>
    </div>
  );
}

/** The review's wording for a transition (approve is 通过 on this page). */
function buttonText(action: ActionDef): string {
  return action.name === 'approve' ? '通过' : action.label;
}

function nextStateLabel(action: ActionDef): string {
  const to = action.effect.kind === 'transition' ? action.effect.to : undefined;
  return to ? (statusOption(to)?.label ?? to) : action.label;
}
