/** A certificate chain as cards, leaf first: subject, issuer, SANs, validity, key, fingerprint. */
import { Card, Descriptions, Space, Tag, Typography } from 'antd';
import { timeText } from '../../monitor/format';

export interface ChainCard {
  subject: string;
  issuer: string;
  sans: string[];
  notBefore: string | Date;
  notAfter: string | Date;
  serialNumber?: string;
  keyType: string | null;
  keySize: number | null;
  fingerprint256: string;
  selfSigned?: boolean;
  daysLeft?: number | null;
}

const iso = (value: string | Date) => (typeof value === 'string' ? value : value.toISOString());

function roleOf(index: number, count: number, cert: ChainCard): string {
  if (index === 0) return count > 1 ? '站点证书' : cert.selfSigned ? '自签名证书' : '证书';
  return cert.selfSigned ? '根证书' : '中间证书';
}

export function ChainView({ chain }: { chain: readonly ChainCard[] }) {
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }} data-testid="chain">
      {chain.map((cert, index) => (
        <Card
          size="small"
          // biome-ignore lint/suspicious/noArrayIndexKey: the same certificate may appear twice in a pasted chain
          key={`${cert.fingerprint256}-${index}`}
          title={
            <span>
              <Tag color={index === 0 ? 'blue' : 'default'}>{roleOf(index, chain.length, cert)}</Tag>
              {cert.subject}
            </span>
          }
        >
          <Descriptions size="small" column={{ xs: 1, md: 2 }}>
            <Descriptions.Item label="使用者">{cert.subject}</Descriptions.Item>
            <Descriptions.Item label="颁发者">{cert.issuer}</Descriptions.Item>
            <Descriptions.Item label="备用名称" span={2}>
              {cert.sans.length > 0 ? cert.sans.join('，') : '无'}
            </Descriptions.Item>
            <Descriptions.Item label="生效时间">{timeText(iso(cert.notBefore))}</Descriptions.Item>
            <Descriptions.Item label="到期时间">
              {timeText(iso(cert.notAfter))}
              {typeof cert.daysLeft === 'number' &&
                (cert.daysLeft < 0 ? '（已过期）' : `（剩余 ${cert.daysLeft} 天）`)}
            </Descriptions.Item>
            <Descriptions.Item label="密钥">
              {cert.keyType ?? '未知'}
              {cert.keySize ? ` ${cert.keySize} 位` : ''}
            </Descriptions.Item>
            {cert.serialNumber && <Descriptions.Item label="序列号">{cert.serialNumber}</Descriptions.Item>}
            <Descriptions.Item label="SHA-256 指纹" span={2}>
              <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
                {cert.fingerprint256}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </Card>
      ))}
    </Space>
  );
}
