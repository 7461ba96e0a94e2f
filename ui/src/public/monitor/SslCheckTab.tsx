/** 检测证书: a real handshake done by the server (POST /api/me/ssl/check), the verdict and the chain. */
import { Alert, Button, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useState } from 'react';
import { useServices } from '../../session/services-context';
import { failureText } from '../use-remote';
import { ChainView } from './ChainView';
import {
  type CheckInput,
  type CheckResult,
  STARTTLS_OPTIONS,
  type Starttls,
  sslApi,
  VERDICTS,
} from './ssl-api';

export function verdictAlert(result: Pick<CheckResult, 'verdict' | 'reason' | 'daysLeft'>) {
  const verdict = VERDICTS[result.verdict] ?? { label: result.verdict, type: 'error' as const };
  const days =
    typeof result.daysLeft === 'number'
      ? result.daysLeft < 0
        ? `已过期 ${-result.daysLeft} 天`
        : `剩余 ${result.daysLeft} 天`
      : null;
  return (
    <Alert
      type={verdict.type}
      showIcon
      data-verdict={result.verdict}
      title={`${verdict.label}${days ? ` · ${days}` : ''}`}
      description={result.reason}
      style={{ marginBottom: 16 }}
    />
  );
}

/** Host and port typed together (example.com:8443) split; a lone port field wins. */
function splitHost(host: string, port: number | null | undefined): { host: string; port?: number } {
  const match = /^([^:\s]+):(\d{1,5})$/.exec(host.trim());
  if (match && !port) return { host: match[1] as string, port: Number(match[2]) };
  return {
    host: host
      .trim()
      .replace(/^https?:\/\//, '')
      .replace(/\/.*$/, ''),
    ...(port ? { port } : {}),
  };
}

export function SslCheckTab() {
  const { http } = useServices();
  const [form] = Form.useForm();
  const [checking, setChecking] = useState(false);
  const [outcome, setOutcome] = useState<{ result: CheckResult } | { error: string } | null>(null);

  const check = async () => {
    const values = (await form.validateFields()) as {
      host: string;
      port?: number | null;
      starttls: Starttls;
      servername?: string;
      ca?: string;
    };
    const input: CheckInput = { ...splitHost(values.host, values.port), starttls: values.starttls };
    if (values.servername?.trim()) input.servername = values.servername.trim();
    if (values.ca?.trim()) input.ca = values.ca.trim();
    setChecking(true);
    setOutcome(null);
    try {
      setOutcome({ result: await sslApi(http).check(input) });
    } catch (error) {
      setOutcome({ error: failureText(error) });
    } finally {
      setChecking(false);
    }
  };

  return (
    <div>
      <Form
        form={form}
        layout="vertical"
        name="ssl-check"
        initialValues={{ starttls: 'none' }}
        onFinish={() => void check()}
      >
        <Row gutter={12}>
          <Col xs={24} md={10}>
            <Form.Item
              name="host"
              label="主机"
              rules={[{ required: true, message: '请输入域名或 IP，如 www.example.com' }]}
            >
              <Input placeholder="www.example.com 或 mail.example.com:587" />
            </Form.Item>
          </Col>
          <Col xs={12} md={4}>
            <Form.Item name="port" label="端口" extra="不填按协议默认">
              <InputNumber min={1} max={65535} style={{ width: '100%' }} placeholder="443" />
            </Form.Item>
          </Col>
          <Col xs={12} md={5}>
            <Form.Item name="starttls" label="STARTTLS">
              <Select options={STARTTLS_OPTIONS.map(({ value, label }) => ({ value, label }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={5}>
            <Form.Item name="servername" label="SNI 名称" extra="默认同主机">
              <Input placeholder="可选" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="ca"
          label="信任的根证书（可选）"
          extra="内部 CA 的 PEM：除系统根证书外，也信任它签发的证书"
        >
          <Input.TextArea rows={2} spellCheck={false} placeholder="-----BEGIN CERTIFICATE-----" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={checking}>
          检测
        </Button>
      </Form>
      <div className="wx-ssl-result">
        {outcome && 'error' in outcome && <Alert type="error" showIcon title={outcome.error} />}
        {outcome && 'result' in outcome && (
          <>
            {verdictAlert(outcome.result)}
            <p className="wx-ssl-note">
              {outcome.result.host}:{outcome.result.port} 的证书链（共 {outcome.result.chain.length} 张）
            </p>
            <ChainView chain={outcome.result.chain} />
          </>
        )}
      </div>
    </div>
  );
}
