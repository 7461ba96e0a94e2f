/**
 * 新建订单 — the counter (收银台): a store's goods on the left (by category, a SKU chosen where the
 * goods have them), the cart on the right with the customer (a member, found by phone or name,
 * or 散客), 堂食 / 自提 / 外卖 (with the address), points, and the price as the server's pricing
 * (core's priceOrder, `POST /api/admin/orders/price`) answers it — asked again, debounced, as
 * the cart changes, with its messages (再买 ¥x 可减 ¥y). 下单 creates the order (pending payment);
 * the board then asks for the money (收款).
 */
import { DeleteOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import {
  COUNTER_PAY_METHODS,
  describeFailure,
  fieldText,
  formatMoney,
  isApiError,
  MEMBER_PAY_METHODS,
  type OrderDraft,
  PAY_METHOD_LABELS,
  type PayMethod,
} from '@wanxiang/core';
import {
  Alert,
  Button,
  Drawer,
  Empty,
  Input,
  InputNumber,
  Popover,
  Radio,
  Segmented,
  Select,
  Skeleton,
  Space,
  Spin,
  Tag,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { definitionField } from '../../resources/definitions';
import { SCREEN_DRAWER_STYLE } from '../screen-drawer';
import { useScreenActive } from '../tabs/screen-location';
import type { CounterCustomer, GoodsRow, OrderApi, OrderRow, PricePreview, StoreRow } from './order-api';

export const PREVIEW_DEBOUNCE_MS = 300;

type Fulfilment = OrderDraft['fulfilment'];

const FULFILMENTS: { value: Fulfilment; label: string }[] = [
  { value: 'dineIn', label: '堂食' },
  { value: 'pickup', label: '自提' },
  { value: 'delivery', label: '外卖' },
];

const STORE_STATUS = () => definitionField('stores', 'status');

interface CartLine {
  goodsId: number;
  name: string;
  sku: string | null;
  qty: number;
}

export interface CounterOrderProps {
  api: OrderApi;
  stores: StoreRow[];
  defaultStoreId: number | null;
  onClose(): void;
  onCreated(order: OrderRow, customer: CounterCustomer | null): void;
}

const lineKey = (l: Pick<CartLine, 'goodsId' | 'sku'>) => `${l.goodsId}:${l.sku ?? ''}`;

/** The server's field messages of a refused cart, in the cart's words (`第 2 行：…`). */
function cartProblems(error: unknown, cart: CartLine[]): string[] {
  if (!isApiError(error)) return [describeFailure(error).message];
  const fields = Object.entries(error.fields);
  if (fields.length === 0) return [error.message];
  return fields.map(([path, text]) => {
    const m = /^items\.(\d+)\./.exec(path);
    const line = m ? cart[Number(m[1])] : undefined;
    return line ? `${line.name}：${text}` : text;
  });
}

export default function CounterOrder({ api, stores, defaultStoreId, onClose, onCreated }: CounterOrderProps) {
  const shown = useScreenActive();
  const openStores = stores.filter((s) => s.status === 'open');
  const [storeId, setStoreId] = useState<number | null>(
    defaultStoreId ?? openStores[0]?.id ?? stores[0]?.id ?? null,
  );
  const store = stores.find((s) => s.id === storeId) ?? null;
  const [goods, setGoods] = useState<{ rows: GoodsRow[]; categories: Record<string, string> } | null>(null);
  const [goodsError, setGoodsError] = useState<string | null>(null);
  const [category, setCategory] = useState<string>('all');
  const [cart, setCart] = useState<CartLine[]>([]);
  const [customer, setCustomer] = useState<CounterCustomer | null>(null);
  const [fulfilment, setFulfilment] = useState<Fulfilment>('dineIn');
  const [address, setAddress] = useState('');
  const [points, setPoints] = useState<number | null>(null);
  const [payMethod, setPayMethod] = useState<PayMethod>('cash');
  const [remark, setRemark] = useState('');
  const [preview, setPreview] = useState<PricePreview | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [pricing, setPricing] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [submitError, setSubmitError] = useState<string[]>([]);

  // The store's goods on sale, with their categories' names (the list's relations).
  useEffect(() => {
    if (storeId === null) return;
    let live = true;
    setGoods(null);
    setGoodsError(null);
    setCart([]);
    setCategory('all');
    api.goodsOf(storeId).then(
      (answer) => {
        if (live) setGoods(answer);
      },
      (error) => {
        if (live) setGoodsError(describeFailure(error).message);
      },
    );
    return () => {
      live = false;
    };
  }, [api, storeId]);

  const draft: OrderDraft | null = useMemo(
    () =>
      storeId === null || cart.length === 0
        ? null
        : {
            storeId,
            userId: customer?.id ?? null,
            items: cart.map((l) => ({ goodsId: l.goodsId, sku: l.sku, qty: l.qty })),
            fulfilment,
            points: customer && points ? points : null,
          },
    [storeId, customer, cart, fulfilment, points],
  );

  // The price, from the server's pricing, once the cart has stopped changing for a moment.
  const draftKey = JSON.stringify(draft);
  const seq = useRef(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: draftKey stands for the draft
  useEffect(() => {
    const mine = ++seq.current;
    if (!draft) {
      setPreview(null);
      setProblems([]);
      setPricing(false);
      return;
    }
    setPricing(true);
    const timer = window.setTimeout(() => {
      api.price(draft).then(
        (answer) => {
          if (mine !== seq.current) return;
          setPreview(answer);
          setProblems([]);
          setPricing(false);
        },
        (error) => {
          if (mine !== seq.current) return;
          setPreview(null);
          setProblems(cartProblems(error, cart));
          setPricing(false);
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [api, draftKey]);

  const add = (good: GoodsRow, sku: string | null) => {
    setSubmitError([]);
    setCart((c) => {
      const key = lineKey({ goodsId: good.id, sku });
      const at = c.findIndex((l) => lineKey(l) === key);
      if (at >= 0) return c.map((l, i) => (i === at ? { ...l, qty: Math.min(999, l.qty + 1) } : l));
      return [...c, { goodsId: good.id, name: good.name, sku, qty: 1 }];
    });
  };
  const setQty = (index: number, qty: number) =>
    setCart((c) =>
      qty <= 0 ? c.filter((_, i) => i !== index) : c.map((l, i) => (i === index ? { ...l, qty } : l)),
    );
  const setSku = (index: number, sku: string) =>
    setCart((c) => c.map((l, i) => (i === index ? { ...l, sku } : l)));

  const member = customer !== null;
  useEffect(() => {
    // Balance and cards are a member's; a walk-in customer pays cash or WeChat.
    if (!member && MEMBER_PAY_METHODS.includes(payMethod)) setPayMethod('cash');
  }, [member, payMethod]);

  const submit = async () => {
    if (!draft) return;
    setSubmitting(true);
    setSubmitError([]);
    try {
      const order = await api.create({
        ...draft,
        payMethod,
        ...(fulfilment === 'delivery' ? { address: address.trim() } : {}),
        ...(remark.trim() ? { remark: remark.trim() } : {}),
      });
      onCreated(order, customer);
    } catch (error) {
      setSubmitError(cartProblems(error, cart));
    } finally {
      setSubmitting(false);
    }
  };

  const goodsById = useMemo(() => new Map((goods?.rows ?? []).map((g) => [g.id, g])), [goods]);
  // The categories in the order their goods come (the goods' sort).
  const categories = useMemo(() => [...new Set((goods?.rows ?? []).map((g) => g.categoryId))], [goods]);
  const shownGoods = (goods?.rows ?? []).filter(
    (g) => category === 'all' || String(g.categoryId) === category,
  );
  const storeClosed = store !== null && store.status !== 'open';
  const canSubmit = !!draft && !!preview && problems.length === 0 && !storeClosed && !pricing;

  return (
    <Drawer
      open={shown}
      title="新建订单"
      size={1080}
      onClose={onClose}
      rootStyle={SCREEN_DRAWER_STYLE}
      mask={{ closable: false }}
      className="wx-counter"
      extra={
        <Space>
          <Button onClick={onClose}>取消</Button>
          <Button type="primary" disabled={!canSubmit} loading={submitting} onClick={submit}>
            {preview && canSubmit ? `下单 ${formatMoney(preview.payableFen)}` : '下单'}
          </Button>
        </Space>
      }
    >
      <div className="wx-counter-grid">
        <div className="wx-counter-goods">
          <Select
            aria-label="门店"
            className="wx-counter-store"
            value={storeId ?? undefined}
            placeholder="选择门店"
            onChange={(id) => setStoreId(id)}
            options={stores.map((s) => ({
              value: s.id,
              label: s.status === 'open' ? s.name : `${s.name}（${fieldText(STORE_STATUS(), s.status)}）`,
            }))}
            showSearch={{ optionFilterProp: 'label' }}
          />
          {storeClosed && (
            <Alert
              type="warning"
              showIcon
              title={`门店${fieldText(STORE_STATUS(), store?.status)}，暂不能下单`}
              className="wx-counter-alert"
            />
          )}
          {goodsError ? (
            <Alert type="error" showIcon title="商品加载失败" description={goodsError} />
          ) : goods === null ? (
            <Skeleton active paragraph={{ rows: 8 }} />
          ) : goods.rows.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该门店暂无在售商品" />
          ) : (
            <>
              {categories.length > 1 && (
                <Segmented
                  className="wx-counter-categories"
                  value={category}
                  onChange={(v) => setCategory(String(v))}
                  options={[
                    { value: 'all', label: '全部' },
                    ...categories.map((id) => ({
                      value: String(id),
                      label: goods.categories[String(id)] ?? `分类 #${id}`,
                    })),
                  ]}
                />
              )}
              <ul className="wx-counter-goods-grid" aria-label="商品">
                {shownGoods.map((g) => (
                  <GoodsCard key={g.id} good={g} onAdd={(sku) => add(g, sku)} />
                ))}
              </ul>
            </>
          )}
        </div>

        <div className="wx-counter-cart">
          <div className="wx-counter-field">
            <span className="wx-counter-label">顾客</span>
            <CustomerPicker
              api={api}
              value={customer}
              onChange={(c) => {
                setCustomer(c);
                setPoints(null);
              }}
            />
          </div>
          <div className="wx-counter-field">
            <span className="wx-counter-label">就餐方式</span>
            <Segmented<Fulfilment> value={fulfilment} onChange={setFulfilment} options={FULFILMENTS} />
          </div>
          {fulfilment === 'delivery' && (
            <div className="wx-counter-field">
              <span className="wx-counter-label">收货地址</span>
              <Input
                aria-label="收货地址"
                value={address}
                maxLength={200}
                onChange={(e) => setAddress(e.target.value)}
                placeholder="街道、门牌号"
                status={submitError.length > 0 && !address.trim() ? 'error' : undefined}
              />
            </div>
          )}

          <section className="wx-counter-lines" aria-label="购物车">
            {cart.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="点击左侧商品加入订单" />
            ) : (
              cart.map((line, i) => {
                const good = goodsById.get(line.goodsId);
                const priced = preview?.lines[i];
                return (
                  <div key={lineKey(line)} className="wx-counter-line">
                    <div className="wx-counter-line-name">
                      <span>{line.name}</span>
                      {good?.specs?.length ? (
                        <Select
                          size="small"
                          aria-label={`${line.name}规格`}
                          value={line.sku ?? undefined}
                          onChange={(sku) => setSku(i, sku)}
                          options={good.specs.map((s) => ({
                            value: s.name,
                            label: `${s.name} ${formatMoney(s.priceFen)}`,
                          }))}
                          className="wx-counter-sku"
                        />
                      ) : null}
                    </div>
                    <Space.Compact size="small">
                      <Button
                        icon={<MinusOutlined />}
                        aria-label={`减少${line.name}`}
                        onClick={() => setQty(i, line.qty - 1)}
                      />
                      <InputNumber
                        size="small"
                        min={1}
                        max={999}
                        precision={0}
                        value={line.qty}
                        onChange={(v) => setQty(i, Number(v ?? 1))}
                        aria-label={`${line.name}数量`}
                        className="wx-counter-qty"
                      />
                      <Button
                        icon={<PlusOutlined />}
                        aria-label={`增加${line.name}`}
                        onClick={() => setQty(i, line.qty + 1)}
                      />
                    </Space.Compact>
                    <span className="wx-counter-line-amount">
                      {priced ? formatMoney(priced.amountFen) : '—'}
                    </span>
                    <Button
                      type="text"
                      size="small"
                      icon={<DeleteOutlined />}
                      aria-label={`删除${line.name}`}
                      onClick={() => setQty(i, 0)}
                    />
                  </div>
                );
              })
            )}
          </section>

          {member && (
            <div className="wx-counter-field">
              <span className="wx-counter-label">积分抵扣</span>
              <InputNumber
                aria-label="使用积分"
                min={0}
                max={customer.points}
                precision={0}
                value={points}
                onChange={(v) => setPoints(v === null ? null : Number(v))}
                placeholder={`可用 ${customer.points}`}
                disabled={customer.points === 0}
                style={{ width: 160 }}
              />
              <span className="wx-order-muted">100 积分抵 ¥1</span>
            </div>
          )}

          <PriceBox preview={preview} pricing={pricing} problems={problems} />

          <div className="wx-counter-field">
            <span className="wx-counter-label">支付方式</span>
            <Radio.Group
              value={payMethod}
              onChange={(e) => setPayMethod(e.target.value)}
              optionType="button"
              options={COUNTER_PAY_METHODS.map((m) => ({
                value: m,
                label: PAY_METHOD_LABELS[m],
                disabled: !member && MEMBER_PAY_METHODS.includes(m),
              }))}
            />
          </div>
          {payMethod === 'balance' && customer && preview && (
            <div className={customer.balanceFen < preview.payableFen ? 'wx-counter-warn' : 'wx-order-muted'}>
              顾客余额 {formatMoney(customer.balanceFen)}
              {customer.balanceFen < preview.payableFen ? '，不足以支付本单' : ''}
            </div>
          )}
          <div className="wx-counter-field">
            <span className="wx-counter-label">备注</span>
            <Input
              aria-label="备注"
              value={remark}
              maxLength={200}
              onChange={(e) => setRemark(e.target.value)}
              placeholder="口味、忌口等"
            />
          </div>
          {submitError.length > 0 && (
            <Alert type="error" showIcon title="未能下单" description={submitError.join('；')} />
          )}
        </div>
      </div>
    </Drawer>
  );
}

function GoodsCard({ good, onAdd }: { good: GoodsRow; onAdd(sku: string | null): void }) {
  const specs = good.specs ?? [];
  const soldOut = specs.length > 0 ? specs.every((s) => s.stock <= 0) : good.stock <= 0;
  const from = specs.length > 0 ? Math.min(...specs.map((s) => s.priceFen)) : good.priceFen;
  const body = (
    <button
      type="button"
      className="wx-counter-good"
      disabled={soldOut}
      aria-label={good.name}
      onClick={specs.length ? undefined : () => onAdd(null)}
    >
      <span className="wx-counter-good-name">{good.name}</span>
      <span className="wx-counter-good-price">
        {formatMoney(from)}
        {specs.length > 0 && <span className="wx-order-muted"> 起</span>}
      </span>
      {soldOut ? (
        <Tag className="wx-counter-good-tag">售罄</Tag>
      ) : specs.length > 0 ? (
        <Tag className="wx-counter-good-tag" color="blue">
          选规格
        </Tag>
      ) : null}
    </button>
  );
  if (!specs.length || soldOut) return <li>{body}</li>;
  return (
    <li>
      <Popover
        trigger="click"
        title={`${good.name} · 选择规格`}
        content={
          <Space wrap>
            {specs.map((s) => (
              <Button key={s.name} disabled={s.stock <= 0} onClick={() => onAdd(s.name)}>
                {s.name} {formatMoney(s.priceFen)}
              </Button>
            ))}
          </Space>
        }
      >
        {body}
      </Popover>
    </li>
  );
}

function CustomerPicker({
  api,
  value,
  onChange,
}: {
  api: OrderApi;
  value: CounterCustomer | null;
  onChange(customer: CounterCustomer | null): void;
}) {
  const [options, setOptions] = useState<CounterCustomer[]>([]);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const timer = useRef<number | null>(null);
  const seq = useRef(0);
  useEffect(
    () => () => {
      if (timer.current) window.clearTimeout(timer.current);
    },
    [],
  );

  const search = (q: string) => {
    if (timer.current) window.clearTimeout(timer.current);
    const text = q.trim();
    if (!text) {
      setOptions([]);
      return;
    }
    timer.current = window.setTimeout(() => {
      const mine = ++seq.current;
      setLoading(true);
      api.customers(text).then(
        (rows) => {
          if (mine !== seq.current) return;
          setOptions(rows);
          setFailed(null);
          setLoading(false);
        },
        (error) => {
          if (mine !== seq.current) return;
          setOptions([]);
          setFailed(describeFailure(error).message);
          setLoading(false);
        },
      );
    }, 250);
  };
  const label = (c: CounterCustomer) =>
    `${c.nickname || c.username}${c.phone ? ` · ${c.phone}` : ''} · 余额 ${formatMoney(c.balanceFen)} · ${c.points} 积分`;
  const all = value && !options.some((o) => o.id === value.id) ? [value, ...options] : options;
  return (
    <Select<number>
      aria-label="顾客"
      className="wx-counter-customer"
      allowClear
      placeholder="散客（输入手机号、用户名或昵称查找会员）"
      value={value?.id}
      onChange={(id) => onChange(all.find((c) => c.id === id) ?? null)}
      showSearch={{ filterOption: false, onSearch: search }}
      notFoundContent={loading ? <Spin size="small" /> : failed ? failed : '输入后查找会员'}
      options={all.map((c) => ({ value: c.id, label: label(c) }))}
    />
  );
}

function PriceBox({
  preview,
  pricing,
  problems,
}: {
  preview: PricePreview | null;
  pricing: boolean;
  problems: string[];
}) {
  if (problems.length > 0)
    return (
      <Alert
        type="warning"
        showIcon
        title="无法计价"
        description={problems.join('；')}
        className="wx-counter-price"
      />
    );
  if (!preview) return null;
  const minus = (fen: number) => `-${formatMoney(fen)}`;
  const rows: [string, string, string?][] = [
    ['商品金额', formatMoney(preview.goodsFen)],
    ...(preview.memberFen > 0 ? [['会员折扣', minus(preview.memberFen)] as [string, string]] : []),
    ...(preview.discountFen > 0 || preview.reduction
      ? [['满减', minus(preview.discountFen), preview.reduction?.message] as [string, string, string?]]
      : []),
    ...(preview.couponFen > 0
      ? [['优惠券', minus(preview.couponFen), preview.coupon?.message] as [string, string, string?]]
      : []),
    ...(preview.points
      ? [['积分抵扣', minus(preview.pointsFen), preview.points.message] as [string, string, string?]]
      : []),
    ...(preview.packingFen > 0 ? [['打包费', formatMoney(preview.packingFen)] as [string, string]] : []),
    ...(preview.deliveryFen > 0 ? [['配送费', formatMoney(preview.deliveryFen)] as [string, string]] : []),
  ];
  return (
    <Spin spinning={pricing} size="small">
      <section className="wx-counter-price" aria-label="价格明细">
        {rows.map(([label, value, note]) => (
          <div key={label} className="wx-counter-price-row">
            <span>{label}</span>
            {note && <span className="wx-counter-price-note">{note}</span>}
            <span className="wx-counter-price-value">{value}</span>
          </div>
        ))}
        <div className="wx-counter-price-row wx-counter-price-total">
          <span>应付</span>
          <span className="wx-counter-price-value">{formatMoney(preview.payableFen)}</span>
        </div>
      </section>
    </Spin>
  );
}
