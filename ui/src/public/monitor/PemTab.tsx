/** 解析证书: paste PEM, read it here (x509.ts) — nothing is sent. Its own chunk with @peculiar/x509. */
import { Alert, Button, Input, Space } from 'antd';
import { useState } from 'react';
import { ChainView } from './ChainView';
import { type DecodedCertificate, decodePem, PemError } from './x509';

export default function PemTab() {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<{ certs: DecodedCertificate[] } | { error: string } | null>(null);

  const decode = async () => {
    try {
      setOutcome({ certs: await decodePem(text) });
    } catch (error) {
      setOutcome({
        error: error instanceof PemError ? error.message : '证书无法解析：内容不完整或不是 X.509 证书',
      });
    }
  };

  return (
    <div>
      <p className="wx-ssl-note">证书只在本页解析，不会上传。可一次粘贴整条证书链。</p>
      <Input.TextArea
        aria-label="PEM 证书"
        rows={8}
        spellCheck={false}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
      />
      <Space style={{ margin: '12px 0' }}>
        <Button type="primary" onClick={() => void decode()} disabled={text.trim() === ''}>
          解析
        </Button>
        <Button
          onClick={() => {
            setText('');
            setOutcome(null);
          }}
        >
          清空
        </Button>
      </Space>
      {outcome && 'error' in outcome && <Alert type="error" showIcon title={outcome.error} />}
      {outcome && 'certs' in outcome && (
        <ChainView
          chain={outcome.certs.map((c) => ({ ...c, notBefore: c.notBefore, notAfter: c.notAfter }))}
        />
      )}
    </div>
  );
}
