/**
 * The order news of `/ws` topic `orders` (server: domain/orders; pushed after each commit): a new
 * order, a status move, a refund, a runner assigned. One socket per page, shared by the screens
 * that listen (the order board, the dispatch screen), opened while one listens and closed when
 * none does; it reconnects after a drop, with a growing pause. `live` says whether pushes are
 * coming: while they are not (a proxy without WebSocket, a dropped connection, the server's link
 * between its processes reconnecting — server/SCALE-OUT.md), the screens poll instead.
 */
import { ORDER_BOARD_TOPIC } from '@wanxiang/core';
import { TopicFeed, type TopicFeedOptions } from '../../platform/topic-feed';

/** Core's topic of the board's news (the server publishes on it). */
export const ORDER_TOPIC = ORDER_BOARD_TOPIC;

export interface OrderNews {
  type: 'created' | 'status' | 'refund' | 'assigned';
  order: {
    id: number;
    orderNo: string;
    storeId?: number;
    status: string;
    /** status moves: the status before, and the move's name. */
    from?: string | null;
    move?: string;
    runnerId?: number;
  };
}

export type OrderFeedOptions = Omit<TopicFeedOptions<OrderNews>, 'topic' | 'accept'>;

function isNews(data: unknown): data is OrderNews {
  if (typeof data !== 'object' || data === null) return false;
  const { type, order } = data as Record<string, unknown>;
  return (
    typeof type === 'string' &&
    typeof order === 'object' &&
    order !== null &&
    typeof (order as Record<string, unknown>).id === 'number'
  );
}

/** The board's news: the `orders` topic, pushes that are order news only. */
export class OrderFeed extends TopicFeed<OrderNews> {
  constructor(options: OrderFeedOptions) {
    super({ ...options, topic: ORDER_TOPIC, accept: isNews });
  }
}
