/**
 * The screen of an admin route that lists registry resources: one list, or one tab per list when
 * several share the route (a campaign and its referrals; a review queue over topics and posts,
 * each a view with fixed filters). The active tab is in the URL (`?tab=`); each tab remembers the
 * query it was left at. A route the registry lists nothing for shows its title.
 */
import { useCallback, useRef } from 'react';
import AdminScreen from '../admin/AdminScreen';
import { useScreenSearch } from '../admin/tabs/screen-location';
import { useRouteListings } from './definitions';
import { ResourceView } from './ResourceView';
import './resources.css';

const TAB = 'tab';

function splitTab(search: string): { tab: string | null; rest: string } {
  const params = new URLSearchParams(search);
  const tab = params.get(TAB);
  params.delete(TAB);
  const rest = params.toString();
  return { tab, rest: rest ? `?${rest}` : '' };
}

function withTab(tab: string | null, search: string): string {
  const params = new URLSearchParams(search);
  if (tab) params.set(TAB, tab);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export default function ResourcePage({ route, title }: { route: string; title: string }) {
  // Suspends (the screen's loading state) until the route's definitions are loaded.
  const listings = useRouteListings(route);
  const [search, setSearch] = useScreenSearch();
  const { tab, rest } = splitTab(search);
  // The query each tab was left at, to come back to it.
  const left = useRef<Record<string, string>>({});

  const active = listings.find((l) => l.def.name === tab) ?? listings[0];
  const activeName = active?.def.name ?? '';
  const first = listings[0]?.def.name;
  const setActiveSearch = useCallback(
    (next: string) => setSearch(withTab(activeName === first ? null : activeName, next)),
    [setSearch, activeName, first],
  );

  if (!active) return <AdminScreen title={title} />;
  if (listings.length === 1) {
    return (
      <section className="wx-admin-panel wx-resource-page">
        <ResourceView
          def={active.def}
          fixedFilters={active.filters}
          title={title}
          location={{ search: rest, setSearch: setActiveSearch }}
        />
      </section>
    );
  }
  const switchTo = (name: string) => {
    if (name === activeName) return;
    left.current[activeName] = rest;
    setSearch(withTab(name === first ? null : name, left.current[name] ?? ''));
  };
  return (
    <section className="wx-admin-panel wx-resource-page">
      <div className="wx-resource-tabs" role="tablist" aria-label={title}>
        {listings.map(({ def, title: tabTitle }) => (
          <button
            key={def.name}
            type="button"
            role="tab"
            aria-selected={def.name === activeName}
            className={def.name === activeName ? 'wx-resource-tab wx-resource-tab-active' : 'wx-resource-tab'}
            onClick={() => switchTo(def.name)}
          >
            {tabTitle}
          </button>
        ))}
      </div>
      {/* Every list opened stays mounted (hidden) and keeps its state until the screen closes. */}
      {listings
        .filter(({ def }) => def.name === activeName || def.name in left.current)
        .map(({ def, filters, title: tabTitle }) => (
          <div key={def.name} role="tabpanel" hidden={def.name !== activeName}>
            <ResourceView
              def={def}
              fixedFilters={filters}
              title={tabTitle}
              location={
                def.name === activeName
                  ? { search: rest, setSearch: setActiveSearch }
                  : { search: left.current[def.name] ?? '', setSearch: () => {} }
              }
            />
          </div>
        ))}
    </section>
  );
}
