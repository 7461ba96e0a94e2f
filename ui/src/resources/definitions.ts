/**
 * The resource definitions this page has loaded (core's lazy.ts): a back-office list loads the
 * definition modules of its route and of the resources its fields point at, not the whole
 * registry — the first list shows sooner (QUALITY.md: ≤ 400 KB before it). Components of the
 * generic list (the relation picker, the form) look definitions up here; a screen of its own that
 * imports core's whole registry hands it over with `adoptDefinitions`.
 */
import { DefinitionLoader, type FieldDef, type ResourceDef, type RouteListing } from '@wanxiang/core';
import { use } from 'react';

const loader = new DefinitionLoader();

/** A loaded definition (a relation's target, the form's own resource); undefined if not loaded. */
export function loadedDefinition(name: string): ResourceDef | undefined {
  return loader.find(name);
}

/** A route's listings; suspends (React `use`) until its definitions are loaded. */
export function useRouteListings(route: string): RouteListing[] {
  return use(loader.route(route));
}

/** Loads named resources and what they point at (before navigating to another's screen). */
export function loadDefinitions(names: readonly string[]): Promise<void> {
  return loader.resources(names);
}

/** A route's listings, once loaded (outside rendering). */
export function routeListings(route: string): Promise<RouteListing[]> {
  return loader.route(route);
}

/** Definitions a screen already has (one that imports the whole registry). */
export function adoptDefinitions(resources: readonly ResourceDef[]): void {
  loader.adopt(resources);
}

/**
 * A loaded definition, for screens that declared it (admin/custom-screens.ts loads a screen's
 * definitions with its chunk). Missing is a programming error: the screen did not declare it.
 */
export function definition(name: string): ResourceDef {
  const def = loader.find(name);
  if (!def)
    throw new Error(`resource ${name} is not loaded: declare it with its screen (admin/custom-screens.ts)`);
  return def;
}

/** A field of a loaded definition (an enum's labels and colours, a list's item labels). */
export function definitionField(resource: string, field: string): FieldDef {
  const def = definition(resource).fields[field];
  if (!def) throw new Error(`resource ${resource} has no field ${field}`);
  return def;
}
