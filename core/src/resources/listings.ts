/**
 * What an admin screen lists, over any set of resources: the registry's (registry.ts) or the
 * definitions the UI has loaded so far (lazy.ts). Kept apart from registry.ts, which imports every
 * definition module, so the UI can use it without loading them all.
 */
import type { ResourceDef } from './define';

/** One list on an admin screen: a resource, the fixed filters the screen applies, its tab title. */
export interface RouteListing {
  def: ResourceDef;
  filters: Readonly<Record<string, string>>;
  title: string;
}

/**
 * The resources whose route it is (no fixed filter), then the views other resources declare on it
 * (a review queue over docs, topics, posts), in the order of `resources`.
 */
export function listingsIn(resources: readonly ResourceDef[], route: string): RouteListing[] {
  const own = resources
    .filter((r) => r.route === route)
    .map((def) => ({ def, filters: {}, title: def.title }));
  const views = resources.flatMap((def) =>
    (def.views ?? [])
      .filter((v) => v.route === route)
      .map((v) => ({ def, filters: v.filters, title: v.title ?? def.title })),
  );
  return [...own, ...views];
}
