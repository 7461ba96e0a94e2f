/**
 * 导入日志: pick the domain and an access log (plain or .gz), send it to the import endpoint and
 * show what came of it — lines, malformed lines with their numbers and reasons, hours, requests,
 * traffic; a file imported before is said so (nothing was counted again).
 */
import { UploadOutlined } from '@ant-design/icons';
import { chinaHourLabel, formatBytes, type HttpClient, isApiError } from '@wanxiang/core';
import { Alert, Button, Descriptions, Modal, Select, Space, Table } from 'antd';
import { type ChangeEvent, useRef, useState } from 'react';
import { type ImportOutcome, importLog } from './cdn-api';

export default function ImportDialog({
  http,
  domains,
  initialDomainId,
  onClose,
  onImported,
}: {
  http: HttpClient;
  domains: { value: number; label: string }[];
  initialDomainId: number | null;
  onClose: () => void;
  onImported: () => void;
}) {
  const [domainId, setDomainId] = useState<number | null>(initialDomainId);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const picker = useRef<HTMLInputElement>(null);

  const send = async (file: File) => {
    if (domainId === null) return;
    setBusy(true);
    setOutcome(null);
    setFailure(null);
    try {
      const answer = await importLog(http, domainId, file);
      setOutcome(answer);
      if (!answer.alreadyImported) onImported();
    } catch (error) {
      setFailure(isApiError(error) ? (error.fields.file ?? error.message) : '导入失败，请检查网络后重试');
    } finally {
      setBusy(false);
    }
  };

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void send(file);
  };

  const i = outcome?.import;
  return (
    <Modal
      open
      title="导入访问日志"
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      width={720}
    >
      <Space direction="vertical" style={{ width: '100%' }} size={12}>
        <div className="wx-cdn-hint">
          nginx combined 格式的访问日志（可为 .gz）；行尾带 $upstream_cache_status（HIT/MISS…）时计算命中率。
          同一文件重复导入不会重复计数。
        </div>
        <Space wrap>
          <Select<number>
            aria-label="导入到域名"
            style={{ minWidth: 260 }}
            placeholder="选择加速域名"
            showSearch={{ optionFilterProp: 'label' }}
            value={domainId ?? undefined}
            options={domains}
            onChange={setDomainId}
          />
          <input
            ref={picker}
            type="file"
            accept=".log,.gz,.txt,text/plain,application/gzip"
            hidden
            aria-label="日志文件"
            onChange={picked}
          />
          <Button
            type="primary"
            icon={<UploadOutlined />}
            loading={busy}
            disabled={domainId === null}
            onClick={() => picker.current?.click()}
          >
            选择日志文件
          </Button>
        </Space>
        {failure && <Alert type="error" showIcon title={failure} />}
        {outcome && i && (
          <>
            <Alert
              type={outcome.alreadyImported ? 'warning' : i.malformed > 0 ? 'info' : 'success'}
              showIcon
              title={outcome.message}
            />
            <Descriptions size="small" column={3} bordered aria-label="导入结果">
              <Descriptions.Item label="行数">{i.lines.toLocaleString('zh-CN')}</Descriptions.Item>
              <Descriptions.Item label="格式错误">{i.malformed.toLocaleString('zh-CN')}</Descriptions.Item>
              <Descriptions.Item label="小时数">{i.hours}</Descriptions.Item>
              <Descriptions.Item label="请求数">{i.requests.toLocaleString('zh-CN')}</Descriptions.Item>
              <Descriptions.Item label="流量">{formatBytes(i.bytes)}</Descriptions.Item>
              <Descriptions.Item label="命中率">
                {i.hasCache ? '已计算' : '日志无缓存状态，未知'}
              </Descriptions.Item>
              <Descriptions.Item label="时段" span={3}>
                {i.firstHour && i.lastHour
                  ? `${chinaHourLabel(Date.parse(i.firstHour))} — ${chinaHourLabel(Date.parse(i.lastHour))}`
                  : '-'}
              </Descriptions.Item>
            </Descriptions>
            {i.samples.length > 0 && (
              <Table
                size="small"
                rowKey="line"
                pagination={false}
                title={() => `格式错误的行（前 ${i.samples.length} 条）`}
                dataSource={i.samples}
                columns={[
                  { title: '行号', dataIndex: 'line', width: 70 },
                  { title: '原因', dataIndex: 'reason', width: 150 },
                  { title: '内容', dataIndex: 'text', ellipsis: true },
                ]}
              />
            )}
          </>
        )}
      </Space>
    </Modal>
  );
}
