/**
 * 生成 CSR: a key pair and a certificate signing request made in this page with WebCrypto
 * (x509.ts). The private key never leaves the page: it is shown, copied or downloaded, and no
 * request carries it. Its own chunk with @peculiar/x509.
 */
import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Col, Form, Input, Row, Select, Space } from 'antd';
import { useState } from 'react';
import { useCopy } from '../tools/copy';
import { type CsrKeyType, type CsrOutput, generateCsr } from './x509';

const HOST = /^(\*\.)?([a-z0-9-]+\.)*[a-z0-9-]+$|^\d{1,3}(\.\d{1,3}){3}$/i;

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/x-pem-file' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function PemBox({
  title,
  text,
  file,
  copy,
}: {
  title: string;
  text: string;
  file: string;
  copy(t: string, w: string): void;
}) {
  return (
    <div className="wx-ssl-pem">
      <div className="wx-ssl-pem-head">
        <b>{title}</b>
        <Space>
          <Button size="small" icon={<CopyOutlined />} onClick={() => copy(text, title)}>
            复制
          </Button>
          <Button size="small" icon={<DownloadOutlined />} onClick={() => download(file, text)}>
            下载
          </Button>
        </Space>
      </div>
      <Input.TextArea aria-label={`${title}（PEM）`} readOnly rows={8} value={text} spellCheck={false} />
    </div>
  );
}

export default function CsrTab() {
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CsrOutput | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { copy, holder } = useCopy();

  const generate = async () => {
    const values = (await form.validateFields()) as {
      keyType: CsrKeyType;
      commonName: string;
      sans?: string[];
      organization?: string;
      country?: string;
    };
    setBusy(true);
    setError(null);
    try {
      setResult(
        await generateCsr({
          keyType: values.keyType,
          commonName: values.commonName.trim(),
          sans: (values.sans ?? []).map((s) => s.trim()).filter(Boolean),
          organization: values.organization?.trim() || undefined,
          country: values.country?.trim().toUpperCase() || undefined,
        }),
      );
    } catch {
      setError('生成失败：浏览器不支持所需的 WebCrypto 算法，请换用新版浏览器');
    } finally {
      setBusy(false);
    }
  };

  const base =
    (form.getFieldValue('commonName') as string | undefined)?.replace(/[^a-z0-9.-]/gi, '_') || 'certificate';

  return (
    <div>
      {holder}
      <Alert
        type="info"
        showIcon
        title="私钥只在本页生成和显示，不会发送到服务器"
        description="生成后请立即下载保存私钥；关闭页面后无法找回。把 CSR 提交给证书颁发机构即可申请证书。"
        style={{ marginBottom: 16 }}
      />
      <Form form={form} layout="vertical" name="csr" initialValues={{ keyType: 'ECDSA-P256', sans: [] }}>
        <Row gutter={12}>
          <Col xs={24} md={8}>
            <Form.Item name="keyType" label="密钥类型">
              <Select
                options={[
                  { value: 'ECDSA-P256', label: 'ECDSA P-256（推荐）' },
                  { value: 'RSA-2048', label: 'RSA 2048' },
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item
              name="commonName"
              label="通用名称（CN）"
              rules={[
                { required: true, message: '请输入证书的主域名，如 www.example.com' },
                { pattern: HOST, message: '须为域名（可用 *. 通配）或 IPv4 地址' },
              ]}
            >
              <Input placeholder="www.example.com" />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="sans"
          label="备用名称（SAN）"
          extra="输入后回车，可多个；通用名称会自动包含"
          rules={[
            {
              validator: (_, value: string[] | undefined) =>
                (value ?? []).every((v) => HOST.test(v.trim()))
                  ? Promise.resolve()
                  : Promise.reject(new Error('备用名称须为域名或 IPv4 地址')),
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            suffixIcon={null}
            tokenSeparators={[',', ' ', '，']}
            placeholder="example.com"
          />
        </Form.Item>
        <Row gutter={12}>
          <Col xs={24} md={16}>
            <Form.Item name="organization" label="组织（O）" rules={[{ max: 64, message: '最多 64 个字符' }]}>
              <Input placeholder="可选" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item
              name="country"
              label="国家（C）"
              rules={[{ pattern: /^[A-Za-z]{2}$/, message: '两位国家代码，如 CN' }]}
            >
              <Input placeholder="CN" maxLength={2} />
            </Form.Item>
          </Col>
        </Row>
        <Button type="primary" loading={busy} onClick={() => void generate().catch(() => undefined)}>
          生成密钥和 CSR
        </Button>
      </Form>
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 16 }} />}
      {result && (
        <Row gutter={16} style={{ marginTop: 16 }} data-testid="csr-result">
          <Col xs={24} lg={12}>
            <PemBox title="私钥" text={result.privateKeyPem} file={`${base}.key`} copy={copy} />
          </Col>
          <Col xs={24} lg={12}>
            <PemBox title="CSR" text={result.csrPem} file={`${base}.csr`} copy={copy} />
          </Col>
        </Row>
      )}
    </div>
  );
}
