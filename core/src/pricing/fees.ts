/**
 * The store's charges for an order by fulfilment: packing for takeaway (delivery and pickup),
 * not for dine-in; delivery only for delivery. Pricing takes them as given (types.ts).
 */
export type FulfilmentKind = 'delivery' | 'pickup' | 'dineIn';

export function orderFees(
  fulfilment: FulfilmentKind,
  store: { packingFeeFen: number; deliveryFeeFen: number },
): { packingFen: number; deliveryFen: number } {
  return {
    packingFen: fulfilment === 'dineIn' ? 0 : store.packingFeeFen,
    deliveryFen: fulfilment === 'delivery' ? store.deliveryFeeFen : 0,
  };
}
