/**
 * A custom monitoring screen's frame: its own board as the first tab, then every registry list of
 * the route (core's listingsOfRoute: monitorJobs, monitorRuns, monitorAlerts … as ResourcePage shows
 * them) with all the generic list's features — filters, 新建/编辑, actions, export, columns.
 * The tab bar is ResourcePage's plain markup (antd Tabs would add ~11 KB before the board shows);
 * each list loads with its first opening and keeps its query while the screen is open.
 */
import { findAdminRoute, type RouteListing } from '@wanxiang/core';
import { Skeleton } from 'antd';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import '../../resources/resources.css';
import { useRouteListings } from '../../resources/definitions';

const ListTab = lazy(() => import('./ListTab'));

const BOARD = 'board';
const keyOf = (listing: RouteListing) => `${listing.def.name}:${listing.title}`;

export function RouteTabs({
  route,
  board,
  boardTitle,
  extra = [],
  skip = [],
}: {
  route: string;
  board: ReactNode;
  boardTitle: string;
  /** Lists of other routes shown here too (the alerts on the certificate screen). */
  extra?: RouteListing[];
  /** Resources whose generic list the board replaces (API keys: the key is shown by the board's dialogs only). */
  skip?: readonly string[];
}) {
  const own = useRouteListings(route);
  const [listings] = useState(() => [...own, ...extra].filter((l) => !skip.includes(l.def.name)));
  const [active, setActive] = useState(BOARD);
  // Every tab opened stays mounted (hidden) and keeps its state until the screen closes.
  const [opened, setOpened] = useState<ReadonlySet<string>>(() => new Set([BOARD]));
  const open = (key: string) => {
    setActive(key);
    setOpened((prev) => (prev.has(key) ? prev : new Set([...prev, key])));
  };
  const tabs = [
    { key: BOARD, title: boardTitle },
    ...listings.map((l) => ({ key: keyOf(l), title: l.title })),
  ];

  // The screen titles itself with the menu's name for the route, as the other custom screens do.
  const title = findAdminRoute(`/admin/${route}`)?.title ?? boardTitle;
  return (
    <section className="wx-admin-panel wx-resource-page wx-monitor-screen">
      <h2 className="wx-admin-panel-title">{title}</h2>
      <div className="wx-resource-tabs" role="tablist" aria-label={boardTitle}>
        {tabs.map(({ key, title }) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={key === active}
            className={key === active ? 'wx-resource-tab wx-resource-tab-active' : 'wx-resource-tab'}
            onClick={() => open(key)}
          >
            {title}
          </button>
        ))}
      </div>
      <div role="tabpanel" hidden={active !== BOARD}>
        {board}
      </div>
      {listings
        .filter((listing) => opened.has(keyOf(listing)))
        .map((listing) => (
          <div key={keyOf(listing)} role="tabpanel" hidden={active !== keyOf(listing)}>
            <Suspense fallback={<Skeleton active />}>
              <ListTab listing={listing} />
            </Suspense>
          </div>
        ))}
    </section>
  );
}
