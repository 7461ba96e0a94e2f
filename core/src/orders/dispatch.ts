/**
 * Which runner to send (DOMAIN.md runner/dispatch: idle, nearest, fewest open deliveries), as
 * 美团's dispatch ranks riders for an order. Pure: the server hands in the runners it knows and
 * the store the order is picked up from; the UI shows the first as the suggestion and the rest as
 * alternatives.
 *
 * Ranked by: may serve the store (no stores listed = every store), is on duty (not offline) and,
 * where both positions are known, within `MAX_DISPATCH_DISTANCE_M` of the store (a runner in
 * another city is no candidate however idle); then idle before delivering; then distance to the store (a runner without a position after
 * those with one); then fewer open deliveries; then id for a stable order.
 */

export interface DispatchRunner {
  id: number;
  name: string;
  status: string;
  lng?: number | null;
  lat?: number | null;
  storeIds?: readonly number[] | null;
  /** Deliveries assigned to or picked up by the runner and not yet delivered. */
  openDeliveries: number;
}

export interface PickupPoint {
  storeId: number;
  lng?: number | null;
  lat?: number | null;
}

export interface RunnerCandidate extends DispatchRunner {
  /** Metres to the store as the crow flies, or null when either position is unknown. */
  distanceM: number | null;
}

const EARTH_RADIUS_M = 6_371_000;

/** Farther than this from the store (20 km, a long ride for an e-bike) a runner is not offered. */
export const MAX_DISPATCH_DISTANCE_M = 20_000;

/** Great-circle distance in metres (haversine), rounded. */
export function distanceMetres(a: { lng: number; lat: number }, b: { lng: number; lat: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h))));
}

const known = (p: { lng?: number | null; lat?: number | null }): p is { lng: number; lat: number } =>
  typeof p.lng === 'number' && typeof p.lat === 'number';

export function rankRunners(point: PickupPoint, runners: readonly DispatchRunner[]): RunnerCandidate[] {
  return runners
    .filter((r) => r.status !== 'offline' && (!r.storeIds?.length || r.storeIds.includes(point.storeId)))
    .map((r) => ({ ...r, distanceM: known(r) && known(point) ? distanceMetres(r, point) : null }))
    .filter((r) => r.distanceM === null || r.distanceM <= MAX_DISPATCH_DISTANCE_M)
    .sort(
      (a, b) =>
        Number(a.status !== 'idle') - Number(b.status !== 'idle') ||
        (a.distanceM ?? Number.POSITIVE_INFINITY) - (b.distanceM ?? Number.POSITIVE_INFINITY) ||
        a.openDeliveries - b.openDeliveries ||
        a.id - b.id,
    );
}
