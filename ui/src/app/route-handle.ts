/**
 * What a route needs loaded to render: fetched together on the first visit. Its own module so the
 * screens that read it (the admin tab outlet) need not import the route table, which lazily
 * imports them.
 */
export interface RouteHandle {
  preload?: () => Promise<unknown>;
  /** false: the tab bar does not keep the screen mounted while another is shown (its data is the loader's). */
  keepAlive?: boolean;
}
