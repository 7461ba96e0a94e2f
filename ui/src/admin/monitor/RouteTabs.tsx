/**
 * A custom monitoring screen's frame: its own board as the first tab, then every registry list of
 * the route (core's listingsOfRoute: monitorJobs, monitorRuns, monitorAlerts … as ResourcePage shows
 * them) with all the generic list's features — filters, 新建/编辑, actions, export, columns.
 * Each list keeps its query while the screen is open.
 */
import { listingsOfRoute, type RouteListing } from '@wanxiang/core';
import { Tabs } from 'antd';
import { type ReactNode, useState } from 'react';
import { ResourceView } from '../../resources/ResourceView';
import '../../resources/resources.css';

function ListTab({ listing }: { listing: RouteListing }) {
  const [search, setSearch] = useState('');
  return (
    <ResourceView
      def={listing.def}
      fixedFilters={listing.filters}
      title={listing.title}
      location={{ search, setSearch }}
    />
  );
}

export function RouteTabs({
  route,
  board,
  boardTitle,
  extra = [],
}: {
  route: string;
  board: ReactNode;
  boardTitle: string;
  /** Lists of other routes shown here too (the alerts on the certificate screen). */
  extra?: RouteListing[];
}) {
  const [listings] = useState(() => [...listingsOfRoute(route), ...extra]);
  const [active, setActive] = useState('board');
  return (
    <section className="wx-admin-panel wx-resource-page wx-monitor-screen">
      <Tabs
        activeKey={active}
        onChange={setActive}
        items={[
          { key: 'board', label: boardTitle, children: board },
          ...listings.map((listing) => ({
            key: `${listing.def.name}:${listing.title}`,
            label: listing.title,
            children: <ListTab listing={listing} />,
          })),
        ]}
      />
    </section>
  );
}
