/**
 * wechat/merchant (custom screen): the review of merchant applications. The board lists them by
 * state (审核中 first); 审核 opens one as a readable page in the applicant's four sections, secrets
 * shown only masked. 通过 and the later steps are the machine's transitions from the row's state
 * (core merchantReviewActions); 驳回 puts a checkbox beside every field — each ticked field gets
 * its own reason, checked by core's validateRejection before sending (the server applies the same
 * rule) and sent as auditDetail [{field, reason}]. The registry list follows as a tab.
 */
import { ArrowLeftOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  type ActionDef,
  createResourceClient,
  type EnumOption,
  type FieldDef,
  formatDateTime,
  MERCHANT_REVIEW_SECTIONS,
  MERCHANT_STATUS,
  merchantDisplayField,
  merchantFieldLabel,
  merchantReviewActions,
  type Row,
  validateRejection,
} from '@wanxiang/core';
import { App, Button, Checkbox, Radio, Space, Table, Tag } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { failureText } from '../../public/use-remote';
import { useServices } from '../../session/services-context';
import { RouteTabs } from '../monitor/RouteTabs';
import { AUDIT_REASON_MAX_TEXT, RejectReason } from './RejectReason';
import './merchant-review.css';
import { definition } from '../../resources/definitions';

const PAGE = 20;
const NONE = '—';
// Read when rendered: the definitions load with the screen (admin/custom-screens.ts).
const applications = () => definition('merchantApplications');
const fieldOf = (name: string): FieldDef | undefined => applications().fields[name];

type Application = Row & {
  number: string;
  status: string;
  auditDetail?: { field: string; reason: string }[] | null;
};

const statusOption = (status: string): EnumOption | undefined =>
  MERCHANT_STATUS.find((o) => o.value === status);

function StatusTag({ status }: { status: string }) {
  const option = statusOption(status);
  return <Tag color={option?.color}>{option?.label ?? status}</Tag>;
}

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

function ApplicationReview({ id, onBack }: { id: number; onBack: () => void }) {
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

const FILTERS: { value: string; label: string }[] = [
  { value: 'auditing', label: '待审核' },
  { value: 'rejected', label: '已驳回' },
  { value: '', label: '全部' },
];

function ReviewBoard() {
  const { http } = useServices();
  const { message } = App.useApp();
  const client = useMemo(() => createResourceClient<Application>(http, applications()), [http]);
  const [status, setStatus] = useState('auditing');
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Application[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  const [open, setOpen] = useState<number | null>(null);

  const reload = useCallback(async () => {
    setLoading(true);
    const answer = await client.list({
      page,
      limit: PAGE,
      sort: 'submittedAt',
      filters: status ? { status } : {},
    });
    setLoading(false);
    if (!answer?.success) {
      message.error(failureText(answer?.error));
      return;
    }
    setRows(answer.list);
    setTotal(answer.count);
  }, [client, page, status, message]);

  useEffect(() => {
    if (open === null) void reload();
  }, [reload, open]);

  if (open !== null) return <ApplicationReview id={open} onBack={() => setOpen(null)} />;
  return (
    <div className="wx-mr-board">
      <div className="wx-mr-toolbar">
        <Radio.Group
          aria-label="按状态"
          optionType="button"
          options={FILTERS}
          value={status}
          onChange={(e) => {
            setPage(1);
            setStatus(e.target.value);
          }}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void reload()}>
          刷新
        </Button>
      </div>
      <Table<Application>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 900 }}
        pagination={{ current: page, pageSize: PAGE, total, onChange: setPage, showSizeChanger: false }}
        locale={{ emptyText: status === 'auditing' ? '没有待审核的申请' : '暂无申请' }}
        columns={[
          { title: '申请编号', dataIndex: 'number', width: 220 },
          { title: '商户简称', dataIndex: 'shortName' },
          { title: '主体名称', dataIndex: 'merchantName', ellipsis: true },
          { title: '联系人', dataIndex: 'contactName', width: 100 },
          { title: '状态', dataIndex: 'status', width: 110, render: (s: string) => <StatusTag status={s} /> },
          {
            title: '提交时间',
            dataIndex: 'submittedAt',
            width: 170,
            render: (v: string | null) => (v ? formatDateTime(v) : NONE),
          },
          {
            title: '操作',
            key: 'open',
            width: 90,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" onClick={() => setOpen(r.id)}>
                {r.status === 'auditing' ? '审核' : '查看'}
              </Button>
            ),
          },
        ]}
      />
    </div>
  );
}

export default function MerchantReviewScreen() {
  return <RouteTabs route="wechat/merchant" boardTitle="进件审核" board={<ReviewBoard />} />;
}
