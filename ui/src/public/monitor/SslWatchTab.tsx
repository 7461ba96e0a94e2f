/**
 * 证书监控: the user's own certificate watches (sslJobs with ownerId — GET/POST /api/me/ssl): status,
 * days left, expiry; add one (checked at once by the server), 立即检测, 删除.
 */
import { PlusOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  message,
  Row,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { NO_FIGURE, timeText } from '../../monitor/format';
import { SSL_STATUS_OPTIONS } from '../../monitor/labels';
import { useServices } from '../../session/services-context';
import { failureText } from '../use-remote';
import {
  parseNotifyDays,
  type SslWatch,
  STARTTLS_OPTIONS,
  type Starttls,
  sslApi,
  VERDICTS,
  type WatchInput,
  watchOf,
} from './ssl-api';

const STATUS = new Map(SSL_STATUS_OPTIONS.map((o) => [o.value, o] as const));

function StatusCell({ watch }: { watch: SslWatch }) {
  const status = STATUS.get(watch.status);
  const verdict = watch.verdict ? VERDICTS[watch.verdict] : null;
  return (
    <Space size={4} wrap>
      <Tag color={status?.color}>{status?.label ?? watch.status}</Tag>
      {verdict && watch.verdict !== 'ok' && watch.verdict !== 'expiring' && watch.verdict !== 'expired' && (
        <Tag color={verdict.color}>{verdict.label}</Tag>
      )}
    </Space>
  );
}

export function SslWatchTab() {
  const { http } = useServices();
  const api = useMemo(() => sslApi(http), [http]);
  const [form] = Form.useForm();
  const [toast, holder] = message.useMessage({ top: 72 });
  const [modal, modalHolder] = Modal.useModal();
  const [watches, setWatches] = useState<SslWatch[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [busy, setBusy] = useState<Record<number, boolean>>({});

  const reload = useCallback(async () => {
    try {
      setWatches(await api.watches());
      setError(null);
    } catch (e) {
      setError(failureText(e));
    }
  }, [api]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const add = async () => {
    const values = (await form.validateFields()) as {
      host: string;
      port?: number | null;
      starttls: Starttls;
      servername?: string;
      notifyDays: string;
    };
    const input: WatchInput = { host: values.host.trim(), starttls: values.starttls };
    if (values.port) input.port = values.port;
    if (values.servername?.trim()) input.servername = values.servername.trim();
    input.notifyDays = parseNotifyDays(values.notifyDays) ?? [7, 14, 21];
    setAdding(true);
    try {
      const created = await api.watch(input);
      setWatches((prev) => [created, ...(prev ?? []).filter((w) => w.id !== created.id)]);
      form.resetFields(['host', 'port', 'servername']);
      toast.success(`已添加 ${created.host}:${created.port}`);
    } catch (e) {
      toast.error(failureText(e));
    } finally {
      setAdding(false);
    }
  };

  const act = async (watch: SslWatch, what: () => Promise<void>) => {
    setBusy((b) => ({ ...b, [watch.id]: true }));
    try {
      await what();
    } catch (e) {
      toast.error(failureText(e));
    } finally {
      setBusy((b) => ({ ...b, [watch.id]: false }));
    }
  };

  const checkNow = (watch: SslWatch) =>
    act(watch, async () => {
      const updated = watchOf(await api.checkNow(watch.id));
      if (updated) setWatches((prev) => prev?.map((w) => (w.id === updated.id ? updated : w)) ?? prev);
      else await reload();
      toast.success('检测完成');
    });

  const remove = (watch: SslWatch) =>
    act(watch, async () => {
      await api.remove(watch.id);
      setWatches((prev) => prev?.filter((w) => w.id !== watch.id) ?? prev);
      toast.success('已删除');
    });

  const confirmRemove = (watch: SslWatch) =>
    modal.confirm({
      title: `不再监控 ${watch.host}:${watch.port}？`,
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => remove(watch),
    });

  return (
    <div>
      {holder}
      {modalHolder}
      <Form
        form={form}
        layout="vertical"
        name="ssl-watch"
        initialValues={{ starttls: 'none', notifyDays: '7, 14, 21' }}
        onFinish={() => void add()}
      >
        <Row gutter={12} align="bottom">
          <Col xs={24} md={7}>
            <Form.Item name="host" label="域名" rules={[{ required: true, message: '请输入要监控的域名' }]}>
              <Input placeholder="www.example.com" />
            </Form.Item>
          </Col>
          <Col xs={8} md={3}>
            <Form.Item name="port" label="端口">
              <InputNumber min={1} max={65535} style={{ width: '100%' }} placeholder="443" />
            </Form.Item>
          </Col>
          <Col xs={16} md={5}>
            <Form.Item name="starttls" label="STARTTLS">
              <Select options={STARTTLS_OPTIONS.map(({ value, label }) => ({ value, label }))} />
            </Form.Item>
          </Col>
          <Col xs={24} md={5}>
            <Form.Item
              name="notifyDays"
              label="提前提醒（天）"
              rules={[
                {
                  validator: (_, v: string) =>
                    parseNotifyDays(v ?? '')
                      ? Promise.resolve()
                      : Promise.reject(new Error('如 7, 14, 21（1–365 天）')),
                },
              ]}
            >
              <Input />
            </Form.Item>
          </Col>
          <Col xs={24} md={4}>
            <Form.Item>
              <Button type="primary" htmlType="submit" icon={<PlusOutlined />} loading={adding} block>
                添加监控
              </Button>
            </Form.Item>
          </Col>
        </Row>
      </Form>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Table<SslWatch>
        rowKey="id"
        size="middle"
        dataSource={watches ?? []}
        loading={watches === null && !error}
        pagination={false}
        scroll={{ x: 820 }}
        locale={{ emptyText: '还没有监控的证书：添加一个域名，到期前会提醒您' }}
        columns={[
          {
            title: '主机',
            key: 'host',
            render: (_, w) => (
              <span>
                {w.host}:{w.port}
                {w.starttls && w.starttls !== 'none' && (
                  <Tag style={{ marginLeft: 6 }}>{w.starttls.toUpperCase()}</Tag>
                )}
              </span>
            ),
          },
          { title: '状态', key: 'status', width: 170, render: (_, w) => <StatusCell watch={w} /> },
          {
            title: '剩余天数',
            dataIndex: 'daysLeft',
            width: 100,
            // A watch never checked shows no figure (not 0).
            render: (v: number | null, w) => (w.lastCheckAt && typeof v === 'number' ? `${v} 天` : NO_FIGURE),
          },
          { title: '到期时间', dataIndex: 'notAfter', width: 170, render: (v) => timeText(v) },
          { title: '最近检测', dataIndex: 'lastCheckAt', width: 170, render: (v) => timeText(v) },
          {
            title: '操作',
            key: 'actions',
            width: 150,
            fixed: 'right',
            render: (_, w) => (
              <Space size={0}>
                <Button type="link" size="small" loading={busy[w.id]} onClick={() => void checkNow(w)}>
                  立即检测
                </Button>
                <Button type="link" size="small" danger onClick={() => confirmRemove(w)}>
                  删除
                </Button>
              </Space>
            ),
          },
        ]}
        expandable={{
          rowExpandable: (w) => Boolean(w.lastError || w.issuer),
          expandedRowRender: (w) => (
            <div>
              {w.issuer && <div>颁发者：{w.issuer}</div>}
              {w.lastError && <div>失败原因：{w.lastError}</div>}
            </div>
          ),
        }}
      />
    </div>
  );
}
