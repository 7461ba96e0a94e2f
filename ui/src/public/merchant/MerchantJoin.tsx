/**
 * /merchant_join: apply as a merchant in four steps (contact, subject, business, settlement
 * account), each checked by core's validation of merchantApplications — the same schemas the
 * server applies — then POST /api/public/merchant-applications answers the application number.
 * "查询进度" looks an application up by number; a rejected one shows the reasons per field and
 * can be corrected and resubmitted under the same number.
 */
import { CheckCircleFilled, CopyOutlined, InboxOutlined, SearchOutlined } from '@ant-design/icons';
import {
  formatDateTime,
  isApiError,
  MERCHANT_JOIN_STEPS,
  MERCHANT_STATUS,
  type MerchantApplicationStatus,
  merchantApplications,
  merchantStepOf,
  validateMerchantStep,
} from '@wanxiang/core';
import type { UploadFile } from 'antd';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Form,
  Grid,
  Input,
  message,
  Radio,
  Steps,
  Tag,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useServices } from '../../session/services-context';
import './merchant.css';

const FIELDS = merchantApplications.fields;
type FieldName = keyof typeof FIELDS;
const label = (name: FieldName) => FIELDS[name].label;
const optionsOf = (name: FieldName) => {
  const field = FIELDS[name];
  return 'options' in field ? field.options.map((o) => ({ value: o.value, label: o.label })) : [];
};
const STATUS_COLOR: Record<string, string> = Object.fromEntries(
  MERCHANT_STATUS.map((o) => [o.value, o.color ?? 'default']),
);

const PLACEHOLDERS: Partial<Record<FieldName, string>> = {
  contactName: '负责开户的联系人',
  contactMobile: '11 位手机号，用于接收审核通知',
  contactEmail: 'name@example.com',
  merchantName: '与营业执照上的名称一致',
  licenseNumber: '18 位统一社会信用代码',
  legalPerson: '法定代表人姓名',
  idNumber: '18 位居民身份证号',
  shortName: '支付完成页向顾客展示，如“知味面馆”',
  servicePhone: '顾客可拨打的客服电话',
  accountName: '对公账户填主体名称，个人账户填法定代表人姓名',
  bankName: '如 中国工商银行',
  bankBranch: '如 杭州西湖支行（选填）',
  accountNumber: '8–30 位数字',
};

type Submitted = { number: string; statusLabel: string };

function StatusView({ status, onResubmit }: { status: MerchantApplicationStatus; onResubmit: () => void }) {
  return (
    <div className="wx-mj-status" data-testid="status-result">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'n', label: '申请编号', children: <code>{status.number}</code> },
          { key: 's', label: '商户简称', children: status.shortName },
          {
            key: 'st',
            label: '审核状态',
            children: (
              <Tag color={STATUS_COLOR[status.status]} data-testid="status-label">
                {status.statusLabel}
              </Tag>
            ),
          },
          {
            key: 't',
            label: '提交时间',
            children: status.submittedAt ? formatDateTime(status.submittedAt) : '—',
          },
          { key: 'u', label: '最近更新', children: formatDateTime(status.updatedAt) },
        ]}
      />
      {status.auditDetail.length > 0 && (
        <Alert
          type="error"
          showIcon
          title="以下资料需要修改"
          description={
            <ul className="wx-mj-reasons">
              {status.auditDetail.map((d) => (
                <li key={d.field}>
                  <b>{d.label}</b>：{d.reason}
                </li>
              ))}
            </ul>
          }
        />
      )}
      {status.canResubmit && (
        <Button type="primary" onClick={onResubmit} className="wx-mj-resubmit">
          修改资料并重新提交
        </Button>
      )}
    </div>
  );
}

export default function MerchantJoin() {
  const { http } = useServices();
  const [form] = Form.useForm();
  const wide = Grid.useBreakpoint().md !== false;
  const [toast, holder] = message.useMessage({ top: 72 });
  const [step, setStep] = useState(0);
  const [submitting, setSubmitting] = useState(false);
  const [submitted, setSubmitted] = useState<Submitted | null>(null);
  const [resubmitNumber, setResubmitNumber] = useState<string | null>(null);
  const [fileList, setFileList] = useState<UploadFile[]>([]);
  const [lookup, setLookup] = useState('');
  const [lookupState, setLookupState] = useState<
    | { state: 'idle' }
    | { state: 'loading' }
    | { state: 'error'; message: string }
    | { state: 'ready'; status: MerchantApplicationStatus }
  >({ state: 'idle' });

  const showErrors = (fields: Record<string, string>) => {
    form.setFields(Object.entries(fields).map(([name, msg]) => ({ name, errors: [msg] })));
  };

  const checkStep = (index: number): boolean => {
    const result = validateMerchantStep(index, form.getFieldsValue(true));
    if (result.ok) return true;
    showErrors(result.fields);
    const first = Object.keys(result.fields)[0];
    if (first) form.scrollToField(first, { block: 'center' });
    return false;
  };

  const next = () => {
    if (checkStep(step)) setStep(step + 1);
  };

  const submit = async () => {
    for (let i = 0; i < MERCHANT_JOIN_STEPS.length; i++) {
      if (!checkStep(i)) {
        setStep(i);
        return;
      }
    }
    const values = form.getFieldsValue(true) as Record<string, unknown>;
    const body: Record<string, unknown> = {};
    for (const s of MERCHANT_JOIN_STEPS)
      for (const f of s.fields) if (values[f] !== undefined) body[f] = values[f];
    if (resubmitNumber) body.number = resubmitNumber;
    setSubmitting(true);
    try {
      const answer = await http.request<{ data: Submitted }>('/api/public/merchant-applications', {
        method: 'POST',
        body,
        kind: 'silent',
      });
      setSubmitted(answer.data);
      setResubmitNumber(null);
      setLookup(answer.data.number);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fields).length > 0) {
        const steps = Object.keys(error.fields).map(merchantStepOf);
        setStep(Math.min(...steps));
        // The step's fields mount with the step: mark them once rendered.
        setTimeout(() => showErrors(error.fields), 0);
        toast.error(error.message);
      } else {
        toast.error(error instanceof Error ? error.message : '提交失败，请稍后重试');
      }
    } finally {
      setSubmitting(false);
    }
  };

  const query = async (number = lookup.trim()) => {
    if (!/^[A-Za-z0-9_-]{6,32}$/.test(number)) {
      setLookupState({ state: 'error', message: '请输入提交成功后得到的申请编号（6–32 位字母或数字）' });
      return;
    }
    setLookupState({ state: 'loading' });
    try {
      const answer = await http.request<{ data: MerchantApplicationStatus }>(
        `/api/public/merchant-applications/${encodeURIComponent(number)}`,
        { kind: 'silent' },
      );
      setLookupState({ state: 'ready', status: answer.data });
    } catch (error) {
      setLookupState({
        state: 'error',
        message: error instanceof Error ? error.message : '查询失败，请稍后重试',
      });
    }
  };

  const startResubmit = (status: MerchantApplicationStatus) => {
    setResubmitNumber(status.number);
    setSubmitted(null);
    setStep(
      Math.min(...(status.auditDetail.length ? status.auditDetail.map((d) => merchantStepOf(d.field)) : [0])),
    );
    window.scrollTo({ top: 0, behavior: 'smooth' });
  };

  const item = (name: FieldName, control: React.ReactNode, extra?: string, keepValue = false) => (
    <Form.Item
      key={name}
      name={name}
      label={label(name)}
      required={FIELDS[name].required}
      extra={extra}
      // The upload sets the URL itself once the server has the file; its change events are not the value.
      {...(keepValue ? { getValueFromEvent: () => form.getFieldValue(name) } : {})}
    >
      {control}
    </Form.Item>
  );
  const text = (name: FieldName, props: Record<string, unknown> = {}) =>
    item(name, <Input placeholder={PLACEHOLDERS[name]} autoComplete="off" {...props} />);

  const stepBody = [
    <>
      {text('contactName', { maxLength: 20, autoComplete: 'name' })}
      {text('contactMobile', { maxLength: 11, inputMode: 'numeric', autoComplete: 'tel' })}
      {text('contactEmail', { maxLength: 100, inputMode: 'email', autoComplete: 'email' })}
    </>,
    <>
      {item(
        'subjectType',
        <Radio.Group options={optionsOf('subjectType')} optionType="button" buttonStyle="solid" />,
      )}
      {text('merchantName', { maxLength: 100 })}
      {text('licenseNumber', { maxLength: 18 })}
      {item(
        'licenseImage',
        <Upload.Dragger
          accept="image/jpeg,image/png,image/webp"
          maxCount={1}
          listType="picture"
          fileList={fileList}
          onRemove={() => {
            setFileList([]);
            form.setFieldValue('licenseImage', undefined);
          }}
          customRequest={async ({ file, onSuccess, onError }) => {
            const data = new FormData();
            data.append('file', file as Blob);
            try {
              const answer = await http.request<{ data: { url: string } }>(
                '/api/public/merchant-applications/license-image',
                { method: 'POST', body: data, kind: 'silent' },
              );
              form.setFields([{ name: 'licenseImage', value: answer.data.url, errors: [] }]);
              onSuccess?.(answer.data);
            } catch (error) {
              const msg =
                isApiError(error) && error.fields.file
                  ? error.fields.file
                  : error instanceof Error
                    ? error.message
                    : '上传失败';
              form.setFields([{ name: 'licenseImage', value: undefined, errors: [msg] }]);
              onError?.(new Error(msg));
            }
          }}
          onChange={({ fileList: list }) =>
            setFileList(
              list.slice(-1).map((f) => ({
                ...f,
                url: (f.response as { url?: string } | undefined)?.url ?? f.url,
                thumbUrl: (f.response as { url?: string } | undefined)?.url ?? f.thumbUrl,
              })),
            )
          }
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">点击或拖入营业执照照片</p>
          <p className="ant-upload-hint">JPG、PNG、WEBP，不超过 5 MB，四角完整、文字清晰</p>
        </Upload.Dragger>,
        undefined,
        true,
      )}
      {text('legalPerson', { maxLength: 20 })}
      {item(
        'idNumber',
        <Input.Password placeholder={PLACEHOLDERS.idNumber} maxLength={18} autoComplete="off" />,
        '仅用于审核，提交后只保留脱敏号码供查看',
      )}
    </>,
    <>
      {text('shortName', { maxLength: 20 })}
      {text('servicePhone', { maxLength: 20, inputMode: 'tel' })}
      {item('scenes', <Checkbox.Group options={optionsOf('scenes')} />)}
    </>,
    <>
      {item(
        'bankAccountType',
        <Radio.Group options={optionsOf('bankAccountType')} optionType="button" buttonStyle="solid" />,
      )}
      {text('accountName', { maxLength: 100 })}
      {text('bankName', { maxLength: 50 })}
      {text('bankBranch', { maxLength: 100 })}
      {item(
        'accountNumber',
        <Input.Password
          placeholder={PLACEHOLDERS.accountNumber}
          maxLength={30}
          inputMode="numeric"
          autoComplete="off"
        />,
      )}
    </>,
  ];

  return (
    <section className="wx-public-screen wx-mj">
      {holder}
      <header className="wx-mj-head">
        <h1 className="wx-public-screen-title">商户入驻</h1>
        <p>填写四步资料即可提交入驻申请，审核结果会发送到联系人手机，也可以随时凭申请编号查询进度。</p>
      </header>

      <div className="wx-mj-layout">
        <Card className="wx-mj-form-card">
          {submitted ? (
            <div className="wx-mj-done" role="status">
              <CheckCircleFilled className="wx-mj-done-icon" aria-hidden />
              <h2 className="wx-mj-done-title">申请已提交</h2>
              <p className="wx-mj-done-sub">
                当前状态：{submitted.statusLabel}。请记下申请编号，凭它查询审核进度。
              </p>
              <div className="wx-mj-number" data-testid="application-number">
                {submitted.number}
              </div>
              <div className="wx-mj-done-actions">
                <Button
                  icon={<CopyOutlined />}
                  onClick={() =>
                    navigator.clipboard.writeText(submitted.number).then(
                      () => toast.success('已复制申请编号'),
                      () => toast.error('复制失败，请手动记下编号'),
                    )
                  }
                >
                  复制编号
                </Button>
                <Button type="primary" onClick={() => void query(submitted.number)}>
                  查询进度
                </Button>
              </div>
            </div>
          ) : (
            <>
              <Steps
                current={step}
                size="small"
                responsive={false}
                className="wx-mj-steps"
                // Below 768 px: dots with the titles under them, four steps in one row.
                {...(wide ? {} : { type: 'dot' as const, titlePlacement: 'vertical' as const })}
                items={MERCHANT_JOIN_STEPS.map((s) => ({
                  title: s.title,
                  ...(wide ? { description: s.description } : {}),
                }))}
              />
              {resubmitNumber && (
                <Alert
                  className="wx-mj-alert"
                  type="info"
                  showIcon
                  title={`正在修改申请 ${resubmitNumber}`}
                  description="请按驳回原因修改后重新填写全部资料（出于安全，身份证号和银行账号需要重新输入），提交后覆盖原申请。"
                />
              )}
              <Form
                form={form}
                layout="vertical"
                requiredMark
                className="wx-mj-form"
                initialValues={{ subjectType: 'enterprise', bankAccountType: 'corporate', scenes: ['store'] }}
                onValuesChange={(changed) =>
                  form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })))
                }
                onFinish={() => (step < MERCHANT_JOIN_STEPS.length - 1 ? next() : void submit())}
              >
                {stepBody.map((body, i) => (
                  <div key={MERCHANT_JOIN_STEPS[i]?.key} hidden={i !== step}>
                    {body}
                  </div>
                ))}
                <div className="wx-mj-actions">
                  {step > 0 && <Button onClick={() => setStep(step - 1)}>上一步</Button>}
                  {step < MERCHANT_JOIN_STEPS.length - 1 ? (
                    <Button type="primary" htmlType="submit">
                      下一步
                    </Button>
                  ) : (
                    <Button type="primary" htmlType="submit" loading={submitting}>
                      {resubmitNumber ? '重新提交' : '提交申请'}
                    </Button>
                  )}
                </div>
              </Form>
            </>
          )}
        </Card>

        <Card className="wx-mj-lookup" title="查询进度">
          <form
            className="wx-mj-lookup-form"
            onSubmit={(e) => {
              e.preventDefault();
              void query();
            }}
          >
            <label htmlFor="wx-mj-number" className="wx-visually-hidden">
              申请编号
            </label>
            <Input
              id="wx-mj-number"
              value={lookup}
              maxLength={32}
              placeholder="输入申请编号，如 MJ20250101ABCD2345EF"
              onChange={(e) => setLookup(e.target.value)}
              allowClear
            />
            <Button
              htmlType="submit"
              type="primary"
              icon={<SearchOutlined />}
              loading={lookupState.state === 'loading'}
            >
              查询
            </Button>
          </form>
          {lookupState.state === 'error' && (
            <Alert className="wx-mj-alert" type="warning" showIcon title={lookupState.message} />
          )}
          {lookupState.state === 'ready' && (
            <StatusView status={lookupState.status} onResubmit={() => startResubmit(lookupState.status)} />
          )}
          {lookupState.state === 'idle' && (
            <ol className="wx-mj-flow" aria-label="审核流程">
              <li>提交申请</li>
              <li>资料审核（1–3 个工作日）</li>
              <li>账户验证</li>
              <li>签约开通</li>
            </ol>
          )}
        </Card>
      </div>
    </section>
  );
}
