/**
 * The calls the order board, the counter and the dispatch screen make (API.md "Business
 * contracts"), typed, over core's one HTTP client. Lists go through the registry's resource client
 * (the generic list API with its filters); the orders area's own routes are called as they are.
 */
import {
  createResourceClient,
  type HttpClient,
  type ListResult,
  type OrderDraft,
  type PayMethod,
  type PriceBreakdown,
  type Relations,
  type Row,
  type SuccessEnvelope,
} from '@wanxiang/core';
import { definition } from '../../resources/definitions';

/** One line of an order's items (what pricing gave it, and what was refunded of it). */
export interface OrderLine {
  goodsId: number;
  name: string;
  sku: string | null;
  qty: number;
  unitPriceFen: number;
  discountFen?: number;
  payableFen?: number;
  pointsFen?: number;
  refundedQty?: number;
}

export interface OrderRow extends Row {
  orderNo: string;
  storeId: number;
  userId: number | null;
  items: OrderLine[];
  goodsFen: number;
  memberFen: number;
  packingFen: number;
  deliveryFen: number;
  discountFen: number;
  couponFen: number;
  pointsUsed: number;
  pointsFen: number;
  pointsRefunded: number;
  payableFen: number;
  paidFen: number;
  refundedFen: number;
  payMethod: PayMethod;
  cardId: number | null;
  fulfilment: 'delivery' | 'pickup' | 'dineIn';
  address: string | null;
  remark: string | null;
  runnerId: number | null;
  status: string;
  cancelReason: string | null;
}

export interface HistoryLine {
  from: string | null;
  to: string;
  operator: string | null;
  note: string | null;
  at: string;
}

export interface RefundRow extends Row {
  refundNo: string;
  orderId: number;
  kind: 'full' | 'partial';
  amountFen: number;
  points: number;
  items: unknown;
  reason: string | null;
  payMethod: string;
  status: string;
  refundedAt: string | null;
}

/** The price preview: core's breakdown as the server gives it. */
export type PricePreview = Omit<PriceBreakdown, 'lines'> & {
  lines: (Pick<PriceBreakdown['lines'][number], 'goodsId' | 'sku' | 'qty' | 'unitPriceFen' | 'amountFen'> & {
    discountFen: number;
    pointsFen: number;
    payableFen: number;
  })[];
};

export interface CounterCustomer {
  id: number;
  username: string;
  nickname: string | null;
  phone: string | null;
  balanceFen: number;
  points: number;
}

export interface GoodsRow extends Row {
  storeId: number;
  categoryId: number;
  name: string;
  priceFen: number;
  stock: number;
  specs: { name: string; priceFen: number; stock: number }[] | null;
  status: string;
  sort: number;
}

export interface StoreRow extends Row {
  name: string;
  status: string;
  address: string;
}

export interface CardRow extends Row {
  cardNo: string;
  userId: number | null;
  balanceFen: number;
  status: string;
}

export interface DispatchCandidate {
  id: number;
  name: string;
  status: string;
  distanceM: number | null;
  openDeliveries: number;
}

export interface WaitingDelivery {
  deliveryId: number;
  deliveryStatus: 'waiting' | 'assigned';
  runnerId: number | null;
  feeFen: number;
  requestedAt: string;
  order: {
    id: number;
    orderNo: string;
    status: string;
    address: string | null;
    payableFen: number;
    storeId: number;
    storeName: string;
  };
  suggestion: DispatchCandidate | null;
  candidates: DispatchCandidate[];
}

export interface DispatchRunnerRow {
  id: number;
  name: string;
  phone: string;
  status: string;
  openDeliveries: number;
  todayCount: number;
}

export interface DispatchBoard {
  waiting: WaitingDelivery[];
  runners: DispatchRunnerRow[];
}

export interface PrintJob {
  id: number;
  status: string;
  error?: string | null;
}

/** An order row with the names of its store, customer and runner (a list answer's relations). */
export interface NamedOrder {
  order: OrderRow;
  relations: Relations;
}

const data = async <T>(call: Promise<SuccessEnvelope<T>>) => (await call).data;

export function orderApi(http: HttpClient) {
  const orders = createResourceClient<OrderRow>(http, definition('orders'));
  const refunds = createResourceClient<RefundRow>(http, definition('orderRefunds'));
  const goods = createResourceClient<GoodsRow>(http, definition('goods'));
  const stores = createResourceClient<StoreRow>(http, definition('stores'));
  const cards = createResourceClient<CardRow>(http, definition('prepaidCards'));
  const post = <T>(path: string, body: unknown = {}) =>
    data<T>(http.request<SuccessEnvelope<T>>(path, { method: 'POST', body }));

  return {
    orders,
    list: (params: Parameters<typeof orders.list>[0]): Promise<ListResult<OrderRow>> => orders.list(params),
    /** How many orders match (the list's total; one row fetched). */
    async count(filters: Record<string, unknown>): Promise<number | null> {
      const result = await orders.list({ limit: 1, filters });
      return result.success ? result.count : null;
    },
    /** One order with its related names (the list filtered by id answers them). */
    async one(id: number): Promise<NamedOrder | null> {
      const result = await orders.list({ limit: 1, filters: { id } });
      if (!result.success) throw result.error;
      const order = result.list[0];
      return order ? { order, relations: result.relations } : null;
    },
    /** Customers' refund requests waiting for the store (the 退款/售后 badge). */
    async pendingRefunds(): Promise<number | null> {
      const result = await refunds.list({ limit: 1, filters: { status: 'pending' } });
      return result.success ? result.count : null;
    },
    history: (id: number) =>
      data<HistoryLine[]>(http.request<SuccessEnvelope<HistoryLine[]>>(`/api/admin/orders/${id}/history`)),
    async refundsOf(orderId: number): Promise<RefundRow[]> {
      const result = await refunds.list({ limit: 100, filters: { orderId }, sort: 'createdAt' });
      if (!result.success) throw result.error;
      return result.list;
    },
    /** A move of the order machine (or print, refund): `POST /api/admin/orders/{id}/{action}`. */
    act: <T = OrderRow>(id: number, action: string, input: Record<string, unknown> = {}) =>
      post<T>(`/api/admin/orders/${id}/${action}`, input),
    price: (draft: OrderDraft) =>
      data<PricePreview>(
        // A preview is asked for as the cart changes: its refusals are shown beside the cart.
        http.request<SuccessEnvelope<PricePreview>>('/api/admin/orders/price', {
          method: 'POST',
          body: draft,
          kind: 'silent',
        }),
      ),
    create: (body: Record<string, unknown>) => post<OrderRow>('/api/admin/orders', body),
    customers: (q: string) =>
      data<CounterCustomer[]>(
        http.request<SuccessEnvelope<CounterCustomer[]>>('/api/admin/orders/customers', { query: { q } }),
      ),
    /** A store's goods on sale (in their sort order), with the names of their categories. */
    async goodsOf(storeId: number): Promise<{ rows: GoodsRow[]; categories: Record<string, string> }> {
      const result = await goods.list({ limit: 500, sort: 'sort', filters: { storeId, status: 'onSale' } });
      if (!result.success) throw result.error;
      return { rows: result.list, categories: result.relations.categoryId ?? {} };
    },
    async stores(): Promise<StoreRow[]> {
      const result = await stores.list({ limit: 500, sort: 'name' });
      if (!result.success) throw result.error;
      return result.list;
    },
    async cardsOf(userId: number): Promise<CardRow[]> {
      const result = await cards.list({ limit: 50, filters: { userId, status: 'active' } });
      if (!result.success) throw result.error;
      return result.list;
    },
    dispatch: (storeId?: number | null) =>
      data<DispatchBoard>(
        http.request<SuccessEnvelope<DispatchBoard>>('/api/admin/dispatch', {
          query: storeId ? { storeId } : {},
        }),
      ),
    assign: (deliveryId: number, runnerId: number) =>
      post<unknown>(`/api/admin/deliveries/${deliveryId}/assign`, { runnerId }),
  };
}

export type OrderApi = ReturnType<typeof orderApi>;
