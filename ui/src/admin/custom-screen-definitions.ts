/**
 * What a custom admin screen needs from the registry besides its own route's definitions (which
 * every custom screen loads with its chunk, with the resources they point at): resources of other
 * routes it shows. Plain data, read by custom-screens.ts and by ui/bench/bundle-size.ts, which
 * counts these definitions in the screen's weight.
 */
export const CUSTOM_SCREEN_EXTRA_DEFINITIONS: Readonly<Record<string, readonly string[]>> = {
  // The dispatch board (a route of no list) reads orders and runners through the order board's API.
  'runner/dispatch': ['orders', 'runners'],
  // The certificate board shows the alerts, routed with the monitor jobs.
  'monitor/ssl': ['monitorAlerts'],
};
