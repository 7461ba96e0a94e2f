/**
 * 购买套餐 of the API orders board: a user and a plan; the price, the user's balance and, when it
 * falls short, core's 余额不足 words before the click (the server refuses the same, 409, changing
 * nothing). Its own lazy chunk: antd Form is needed only once the dialog opens.
 */
import { createResourceClient, formatMoney, purchaseShortfall, type Row } from '@wanxiang/core';
import { Alert, Form, Modal, Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { definition } from '../../resources/definitions';
import { RelationSelect } from '../../resources/RelationSelect';
import { useServices } from '../../session/services-context';
import './api-market.css';

interface PlanRow extends Row {
  apiId: number;
  name: string;
  calls: number;
  periodDays: number;
  priceFen: number;
  status: string;
}

export default function BuyDialog({
  open,
  onClose,
  onBought,
}: {
  open: boolean;
  onClose(): void;
  onBought(): void;
}) {
  const { http } = useServices();
  const [form] = Form.useForm<{ userId?: number; planId?: number }>();
  const userId = Form.useWatch('userId', form);
  const planId = Form.useWatch('planId', form);
  const [plans, setPlans] = useState<{ rows: PlanRow[]; apis: Record<string, string> }>({
    rows: [],
    apis: {},
  });
  const [balance, setBalance] = useState<number | null>(null);
  const [saving, setSaving] = useState(false);
  const users = useMemo(() => createResourceClient(http, definition('users')), [http]);

  useEffect(() => {
    if (!open) return;
    const client = createResourceClient<PlanRow>(http, definition('apiPlans'));
    void client.list({ limit: 100, filters: { status: 'enabled' }, sort: 'priceFen' }).then((answer) => {
      if (answer.success) setPlans({ rows: answer.list, apis: answer.relations.apiId ?? {} });
    });
  }, [http, open]);

  useEffect(() => {
    setBalance(null);
    if (!userId) return;
    let current = true;
    users.get(userId).then(
      (user) => current && setBalance(Number(user.balanceFen ?? 0)),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [users, userId]);

  const plan = plans.rows.find((p) => p.id === planId);
  const short = plan && balance !== null ? purchaseShortfall(balance, plan.priceFen) : null;

  const buy = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      // The server's answer says 创建成功 (the HTTP client shows it).
      await createResourceClient(http, definition('apiOrders')).create(values);
      form.resetFields();
      onBought();
    } catch {
      // The HTTP client has told the user why (409 余额不足 / 套餐已停用).
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title="购买套餐"
      okText="从余额支付"
      okButtonProps={{ disabled: short !== null }}
      confirmLoading={saving}
      onOk={() => void buy()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="userId" label="用户" rules={[{ required: true, message: '请选择用户' }]}>
          <RelationSelect resource="users" placeholder="搜索用户名或手机号" />
        </Form.Item>
        <Form.Item name="planId" label="套餐" rules={[{ required: true, message: '请选择套餐' }]}>
          <Select
            placeholder="选择套餐"
            showSearch={{ optionFilterProp: 'label' }}
            options={plans.rows.map((p) => ({
              value: p.id,
              label: `${plans.apis[String(p.apiId)] ?? `API #${p.apiId}`} · ${p.name}（${p.calls} 次 / ${p.periodDays} 天，${formatMoney(p.priceFen)}）`,
            }))}
          />
        </Form.Item>
      </Form>
      <div className="wx-api-buy-figures">
        <span>
          价格：<b data-testid="buy-price">{plan ? formatMoney(plan.priceFen) : '—'}</b>
        </span>
        <span>
          用户余额：<b data-testid="buy-balance">{balance === null ? '—' : formatMoney(balance)}</b>
        </span>
      </div>
      {short && <Alert type="error" showIcon title={short} />}
    </Modal>
  );
}
