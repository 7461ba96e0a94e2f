/**
 * 按订单派单 in the real app (routes, guard, layout) against msw: the deliveries waiting for a
 * runner with the runner core suggests, 派单 sending the deliveries' `assign` with that runner, and
 * the delivery then shown as sent (no longer counted as waiting, its 派单 gone). A waiting delivery
 * with no runner to suggest offers no one-click 派单.
 */

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { HttpResponse, http, ws } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, renderApp, server } from '../../test/harness';
import type { DispatchBoard, WaitingDelivery } from '../orders/order-api';

const DISPATCHER = {
  id: 8,
  username: 'dispatch',
  nickname: '调度小李',
  roles: ['dispatcher'],
  permissions: ['oms:read', 'runner:read', 'runner:write'],
};

const AT = '2024-05-01T06:30:00.000Z';

const LI = { id: 3, name: '李四', status: 'idle', distanceM: 800, openDeliveries: 0 };
const WANG = { id: 4, name: '王五', status: 'delivering', distanceM: 2500, openDeliveries: 2 };

function delivery(id: number, orderId: number, extra: Partial<WaitingDelivery> = {}): WaitingDelivery {
  return {
    deliveryId: id,
    deliveryStatus: 'waiting',
    runnerId: null,
    feeFen: 500,
    requestedAt: AT,
    order: {
      id: orderId,
      orderNo: `NO${String(orderId).padStart(6, '0')}`,
      status: 'accepted',
      address: `北京市朝阳区望京街 ${orderId} 号`,
      payableFen: 7080,
      storeId: 1,
      storeName: '望京店',
    },
    suggestion: LI,
    candidates: [LI, WANG],
    ...extra,
  };
}

const listAnswer = (results: unknown[]) =>
  HttpResponse.json({
    success: true,
    data: { results, page: { total: results.length, page: 1, limit: 500 }, relations: {} },
  });

/** The dispatch API: the board as the server answers it, and the assignments it was sent. */
function dispatchCentre() {
  let waiting: WaitingDelivery[] = [
    delivery(21, 101),
    delivery(22, 102, { suggestion: null, candidates: [] }),
  ];
  const assigned: { path: string; body: unknown }[] = [];
  const boards: URLSearchParams[] = [];
  server.use(
    http.get(`${API}/api/admin/stores`, () =>
      listAnswer([
        { id: 1, name: '望京店', status: 'open', address: '望京街 1 号', createdAt: AT, updatedAt: AT },
      ]),
    ),
    http.get(`${API}/api/admin/dispatch`, ({ request }) => {
      boards.push(new URL(request.url).searchParams);
      const board: DispatchBoard = {
        waiting,
        runners: [
          { id: 3, name: '李四', phone: '13800000003', status: 'idle', openDeliveries: 0, todayCount: 5 },
          {
            id: 4,
            name: '王五',
            phone: '13800000004',
            status: 'delivering',
            openDeliveries: 2,
            todayCount: 9,
          },
        ],
      };
      return HttpResponse.json({ success: true, data: board });
    }),
    http.post(`${API}/api/admin/deliveries/:id/assign`, async ({ request, params }) => {
      const body = (await request.json()) as { runnerId: number };
      assigned.push({ path: `${params.id}/assign`, body });
      waiting = waiting.map((w) =>
        w.deliveryId === Number(params.id)
          ? { ...w, deliveryStatus: 'assigned', runnerId: body.runnerId }
          : w,
      );
      return HttpResponse.json({ success: true, message: '派单成功', data: { id: Number(params.id) } });
    }),
  );
  return { assigned, boards };
}

const socket = ws.link(/\/ws$/);

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await Promise.all([import('../AdminLayout'), import('./DispatchBoard')]);
}, 60_000);
beforeEach(() => {
  // The fake /ws accepts the screen's subscription (the screen is then live: no polling).
  server.use(
    socket.addEventListener('connection', ({ client }) => {
      client.addEventListener('message', (event) => {
        const message = JSON.parse(String(event.data)) as { type: string; topic: string };
        if (message.type === 'subscribe')
          client.send(JSON.stringify({ type: 'subscribed', topic: message.topic }));
      });
    }),
  );
});
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function signedIn() {
  window.localStorage.setItem('token', 'token-of-dispatch');
  server.use(
    http.get(`${API}/api/user/current`, () => HttpResponse.json({ success: true, data: DISPATCHER })),
  );
}

/** The waiting list's row of an order. */
const rowOf = async (orderNo: string) =>
  within((await screen.findByText(orderNo)).closest('tr') as HTMLElement);
const summary = () => (document.querySelector('.wx-dispatch-summary')?.textContent ?? '').replace(/\s/g, '');

describe('the dispatch screen', { timeout: 30_000 }, () => {
  it('lists the deliveries waiting for a runner with the suggested runner, and sends one in one click', async () => {
    signedIn();
    const { assigned } = dispatchCentre();
    renderApp('/admin/runner/dispatch');

    const first = await rowOf('NO000101');
    expect(first.getByText('望京店 · ¥70.80')).toBeTruthy();
    expect(first.getByText('北京市朝阳区望京街 101 号')).toBeTruthy();
    expect(first.getByText('待派单')).toBeTruthy();
    // The suggested runner, with what the dispatcher weighs: status, distance, load.
    expect(first.getByText('李四', { selector: 'strong' })).toBeTruthy();
    expect(first.getByText('空闲')).toBeTruthy();
    expect(first.getByText('800 m · 在途 0 单')).toBeTruthy();
    // No runner to suggest: no one-click 派单, only 指定.
    const second = await rowOf('NO000102');
    expect(second.getByText('暂无可派骑手')).toBeTruthy();
    expect(second.queryByRole('button', { name: /派单/ })).toBeNull();
    expect(summary()).toBe('待派单2·已派未取0·在岗骑手2');
    expect(assigned).toEqual([]);

    fireEvent.click(first.getByRole('button', { name: /派单/ }));
    await waitFor(() => expect(assigned).toEqual([{ path: '21/assign', body: { runnerId: 3 } }]));
    // Sent: the delivery is no longer waiting — its runner is named and 派单 is gone.
    await screen.findByText('已派 · 李四');
    const sent = await rowOf('NO000101');
    expect(sent.queryByText('待派单')).toBeNull();
    expect(sent.queryByRole('button', { name: /派单/ })).toBeNull();
    expect(summary()).toBe('待派单1·已派未取1·在岗骑手2');
    expect(await screen.findByText('派单成功')).toBeTruthy();
    expect(assigned).toHaveLength(1);
  });
});
