/**
 * The UI's lazy definitions (lazy.ts) against the registry: the resource → module table is the
 * registry's, and a route loaded module by module lists exactly what listingsOfRoute lists, with
 * every relation its fields and action inputs point at loaded too.
 */
import { describe, expect, it } from 'vitest';
import {
  ADMIN_ROUTES,
  DEFINITION_LOADERS,
  DEFINITION_MODULES,
  DefinitionLoader,
  listingsOfRoute,
  RESOURCE_MODULES,
  RESOURCES,
  relationTargets,
  resourcesOf,
} from '../../src/index';

describe('lazy definitions', () => {
  it('lists every resource with its module and routes, as the registry has them', () => {
    const expected = Object.entries(DEFINITION_MODULES).flatMap(([moduleName, module]) =>
      resourcesOf(module).map((def) => {
        const routes = [def.route, ...(def.views ?? []).map((v) => v.route)].filter((r): r is string => !!r);
        return `${def.name}: ['${moduleName}'${routes.map((r) => `, '${r}'`).join('')}],`;
      }),
    );
    const actual = Object.entries(RESOURCE_MODULES).map(
      ([name, entry]) => `${name}: [${entry.map((part) => `'${part}'`).join(', ')}],`,
    );
    // On a mismatch the expected side is the table to paste into lazy.ts.
    expect(actual.join('\n')).toBe(expected.join('\n'));
    expect(Object.keys(DEFINITION_LOADERS)).toEqual(Object.keys(DEFINITION_MODULES));
  });

  it('loads each admin route with the same listings as the registry and its relations resolvable', async () => {
    for (const route of ADMIN_ROUTES) {
      const loader = new DefinitionLoader();
      const listings = await loader.route(route.pattern);
      const expected = listingsOfRoute(route.pattern);
      expect(listings.map((l) => [l.def.name, l.filters, l.title])).toEqual(
        expected.map((l) => [l.def.name, l.filters, l.title]),
      );
      for (const { def } of listings)
        for (const target of relationTargets(def)) expect(loader.find(target)?.name).toBe(target);
    }
  });

  it('loads named resources on demand and adopts a registry in hand', async () => {
    const loader = new DefinitionLoader();
    expect(loader.find('orders')).toBeUndefined();
    await loader.resources(['orders']);
    expect(loader.find('orders')?.route).toBe('OMS/order');
    expect(loader.find('stores')?.name).toBe('stores');

    const adopted = new DefinitionLoader();
    adopted.adopt(RESOURCES);
    expect(adopted.loaded().map((d) => d.name)).toEqual(RESOURCES.map((d) => d.name));
  });
});
