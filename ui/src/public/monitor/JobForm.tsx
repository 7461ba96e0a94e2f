/**
 * 新建 / 编辑 a job in a drawer: a plain antd Form (the public layout has no admin form machinery)
 * with the definition's labels, help and limits (job-fields.ts). Fields a kind does not use are
 * hidden (method, body … for tcp; keyword for http). The server's field errors land on the fields.
 */
import { isApiError } from '@wanxiang/core';
import { Button, Col, Drawer, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import { useEffect, useState } from 'react';
import type { Job } from '../../monitor/api';
import { defaultOf, help, kindOptions, label, methodOptions, rulesOf, urlRule } from './job-fields';

export interface JobFormProps {
  open: boolean;
  /** The job being edited; null for 新建. */
  job: Job | null;
  onClose(): void;
  onSubmit(body: Record<string, unknown>): Promise<void>;
}

const HEADERS_HELP = 'JSON 对象，如 {"Authorization": "Bearer …"}';

function initialValues(job: Job | null): Record<string, unknown> {
  if (job)
    return {
      ...job,
      headers: job.headers && Object.keys(job.headers).length > 0 ? JSON.stringify(job.headers, null, 2) : '',
      followRedirects: job.followRedirects ?? true,
      ignoreTls: job.ignoreTls ?? false,
    };
  return {
    kind: defaultOf('kind') ?? 'http',
    method: defaultOf('method') ?? 'GET',
    intervalS: defaultOf('intervalS'),
    retryIntervalS: defaultOf('retryIntervalS'),
    timeoutMs: defaultOf('timeoutMs'),
    acceptedStatus: defaultOf('acceptedStatus'),
    maxRetries: defaultOf('maxRetries'),
    invertKeyword: false,
    followRedirects: defaultOf('followRedirects') ?? true,
    ignoreTls: defaultOf('ignoreTls') ?? false,
  };
}

/** Headers typed as JSON text → an object; anything else is the field's error. */
function parseHeaders(text: unknown): Record<string, string> | null {
  if (typeof text !== 'string' || text.trim() === '') return null;
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
  return value as Record<string, string>;
}

export function JobForm({ open, job, onClose, onSubmit }: JobFormProps) {
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const kind = (Form.useWatch('kind', form) as string | undefined) ?? 'http';
  const web = kind !== 'tcp';

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue(initialValues(job));
    }
  }, [open, job, form]);

  const submit = async () => {
    const values = (await form.validateFields()) as Record<string, unknown>;
    const body: Record<string, unknown> = { ...values };
    try {
      body.headers = parseHeaders(values.headers);
    } catch {
      form.setFields([{ name: 'headers', errors: ['请求头须为 JSON 对象'] }]);
      return;
    }
    if (!web) for (const k of ['method', 'headers', 'body', 'acceptedStatus', 'keyword']) delete body[k];
    if (kind !== 'keyword') delete body.invertKeyword;
    setSaving(true);
    try {
      await onSubmit(body);
    } catch (error) {
      if (isApiError(error) && Object.keys(error.fields).length > 0)
        form.setFields(Object.entries(error.fields).map(([name, msg]) => ({ name, errors: [String(msg)] })));
      throw error;
    } finally {
      setSaving(false);
    }
  };

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={job ? `编辑任务：${job.name}` : '新建监控任务'}
      size={560}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" loading={saving} onClick={() => void submit().catch(() => undefined)}>
            保存
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" name="monitor-job" requiredMark>
        <Form.Item name="name" label={label('name')} rules={rulesOf('name')}>
          <Input placeholder="如 官网首页" />
        </Form.Item>
        <Form.Item name="kind" label={label('kind')} rules={rulesOf('kind')}>
          <Select options={kindOptions()} />
        </Form.Item>
        <Form.Item
          name="url"
          label={label('url')}
          rules={[{ required: true, message: `请填写${label('url')}` }, urlRule(kind)]}
          help={undefined}
          extra={web ? undefined : '填写 tcp://主机:端口'}
        >
          <Input placeholder={web ? 'https://www.example.com/' : 'tcp://db.example.com:5432'} />
        </Form.Item>
        {web && (
          <Row gutter={12}>
            <Col span={10}>
              <Form.Item name="method" label={label('method')}>
                <Select options={methodOptions()} />
              </Form.Item>
            </Col>
            <Col span={14}>
              <Form.Item
                name="acceptedStatus"
                label={label('acceptedStatus')}
                rules={rulesOf('acceptedStatus')}
                extra={help('acceptedStatus')}
              >
                <Input />
              </Form.Item>
            </Col>
          </Row>
        )}
        {kind === 'keyword' && (
          <Row gutter={12}>
            <Col span={16}>
              <Form.Item
                name="keyword"
                label={label('keyword')}
                rules={[...rulesOf('keyword'), { required: true, message: `请填写${label('keyword')}` }]}
                extra={help('keyword')}
              >
                <Input />
              </Form.Item>
            </Col>
            <Col span={8}>
              <Form.Item
                name="invertKeyword"
                label={label('invertKeyword')}
                valuePropName="checked"
                extra={help('invertKeyword')}
              >
                <Switch />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="intervalS" label={label('intervalS')} rules={rulesOf('intervalS')}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item
              name="retryIntervalS"
              label={label('retryIntervalS')}
              rules={rulesOf('retryIntervalS')}
            >
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="timeoutMs" label={label('timeoutMs')} rules={rulesOf('timeoutMs')}>
              <InputNumber style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="maxRetries"
          label={label('maxRetries')}
          rules={rulesOf('maxRetries')}
          extra={help('maxRetries')}
        >
          <InputNumber style={{ width: 160 }} />
        </Form.Item>
        {web && (
          <>
            <Row gutter={12}>
              <Col span={12}>
                <Form.Item
                  name="followRedirects"
                  label={label('followRedirects')}
                  valuePropName="checked"
                  extra={help('followRedirects')}
                >
                  <Switch />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item
                  name="ignoreTls"
                  label={label('ignoreTls')}
                  valuePropName="checked"
                  extra={help('ignoreTls')}
                >
                  <Switch />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="headers" label={label('headers')} extra={HEADERS_HELP}>
              <Input.TextArea rows={3} spellCheck={false} />
            </Form.Item>
            <Form.Item name="body" label={label('body')} rules={rulesOf('body')}>
              <Input.TextArea rows={3} spellCheck={false} />
            </Form.Item>
          </>
        )}
      </Form>
    </Drawer>
  );
}
