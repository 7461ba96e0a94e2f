/**
 * The registry: every resource of DOMAIN.md, by name. Server, UI and CLI look resources up here;
 * adding a resource is adding a definition to one of ./definitions/*.
 */
import type { LifecycleTransition, ResourceDef } from './define';
import * as apiMarket from './definitions/api-market';
import * as cloud from './definitions/cloud';
import * as community from './definitions/community';
import * as content from './definitions/content';
import * as crm from './definitions/crm';
import * as delivery from './definitions/delivery';
import * as documents from './definitions/documents';
import * as finance from './definitions/finance';
import * as marketing from './definitions/marketing';
import * as media from './definitions/media';
import * as merchant from './definitions/merchant';
import * as monitoring from './definitions/monitoring';
import * as oms from './definitions/oms';
import * as people from './definitions/people';
import type { DefinitionModuleName } from './lazy';
import { parseListQuery } from './list-query';
import { listingsIn, type RouteListing } from './listings';

/**
 * Definition modules by area, in registry order; each exports its ResourceDefs, lists them in
 * order as `resources` (a namespace object's keys are alphabetical), and may export option lists.
 * The names are those of lazy.ts, which loads the same modules one by one for the UI.
 */
export const DEFINITION_MODULES: Readonly<Record<DefinitionModuleName, Record<string, unknown>>> = {
  people,
  oms,
  finance,
  marketing,
  delivery,
  crm,
  community,
  content,
  documents,
  media,
  monitoring,
  apiMarket,
  cloud,
  merchant,
};

const MODULES: readonly Record<string, unknown>[] = Object.values(DEFINITION_MODULES);

const isResource = (v: unknown): v is ResourceDef =>
  !!v && typeof v === 'object' && 'name' in v && 'fields' in v && 'area' in v;

/** A module's resources in the order it lists them (`resources`), else every ResourceDef it exports. */
export function resourcesOf(module: Record<string, unknown>): ResourceDef[] {
  const listed = module.resources;
  return Array.isArray(listed) ? listed.filter(isResource) : Object.values(module).filter(isResource);
}

export const RESOURCES: readonly ResourceDef[] = MODULES.flatMap(resourcesOf);

const BY_NAME = new Map(RESOURCES.map((r) => [r.name, r]));

export function findResource(name: string): ResourceDef | undefined {
  return BY_NAME.get(name);
}

export function getResource(name: string): ResourceDef {
  const def = BY_NAME.get(name);
  if (!def) throw new Error(`unknown resource ${name}`);
  return def;
}

/** The resources listed on one admin screen (route below /admin/), in registry order. */
export function resourcesOfRoute(route: string): ResourceDef[] {
  return RESOURCES.filter((r) => r.route === route);
}

/**
 * Everything one admin screen lists: the resources whose route it is (no fixed filter), then the
 * views other resources declare on it (a review queue over docs, topics, posts), in registry order.
 */
export function listingsOfRoute(route: string): RouteListing[] {
  return listingsIn(RESOURCES, route);
}

/**
 * Consistency of the registry, as messages (empty when sound): relations point at resources,
 * display fields exist, transitions name enum fields and their values, names are unique.
 */
export function registryProblems(resources: readonly ResourceDef[] = RESOURCES): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const def of resources) {
    if (names.has(def.name)) problems.push(`${def.name}: duplicate resource name`);
    names.add(def.name);
  }
  for (const def of resources) {
    if (!(def.displayField in def.fields) && def.displayField !== 'id')
      problems.push(`${def.name}: displayField ${def.displayField} is not a field`);
    for (const [name, field] of Object.entries(def.fields)) {
      if ((field.type === 'relation' || field.type === 'relationList') && !names.has(field.resource))
        problems.push(`${def.name}.${name}: relation to unknown resource ${field.resource}`);
      if (field.writeOnly && (field.filterable || field.sortable || field.searchable))
        problems.push(`${def.name}.${name}: a write-only field cannot be filtered, sorted or searched`);
      if (field.type === 'relation' && field.within !== undefined) {
        const target = resources.find((r) => r.name === field.resource);
        const own = def.fields[field.within];
        const theirs = target?.fields[field.within];
        if (own?.type !== 'relation')
          problems.push(`${def.name}.${name}: within ${field.within} is not a relation of ${def.name}`);
        if (target && (theirs?.type !== 'relation' || !theirs.filterable))
          problems.push(
            `${def.name}.${name}: within ${field.within} is not a filterable relation of ${target.name}`,
          );
        if (own?.type === 'relation' && theirs?.type === 'relation' && own.resource !== theirs.resource)
          problems.push(`${def.name}.${name}: within ${field.within} points at different resources`);
      }
    }
    for (const related of def.related ?? []) {
      const other = resources.find((r) => r.name === related.resource);
      const field = other?.fields[related.field];
      if (!other) problems.push(`${def.name}: related list of unknown resource ${related.resource}`);
      else if (field?.type !== 'relation' || field.resource !== def.name || !field.filterable)
        problems.push(
          `${def.name}: related ${related.resource}.${related.field} is not a filterable relation to it`,
        );
    }
    for (const view of def.views ?? []) {
      if (view.route === def.route) problems.push(`${def.name}: view on its own route ${view.route}`);
      const parsed = parseListQuery(def, view.filters);
      if (!parsed.ok)
        for (const [key, message] of Object.entries(parsed.fields))
          problems.push(`${def.name}: view ${view.route} filter ${key}: ${message}`);
    }
    const actionNames = new Set<string>();
    for (const action of def.actions ?? []) {
      if (actionNames.has(action.name)) problems.push(`${def.name}: duplicate action ${action.name}`);
      actionNames.add(action.name);
      if (['export', 'count'].includes(action.name))
        problems.push(`${def.name}: action name ${action.name} is reserved`);
      if (action.scope === 'collection') {
        if (action.effect.kind !== 'handler' || action.effect.when)
          problems.push(`${def.name}.${action.name}: a collection action is a handler without when`);
        continue;
      }
      if (action.effect.kind === 'handler') {
        for (const [other, allowed] of Object.entries(action.effect.when ?? {})) {
          const w = def.fields[other];
          if (w?.type !== 'enum')
            problems.push(`${def.name}.${action.name}: when-field ${other} is not an enum`);
          else
            for (const v of allowed)
              if (!w.options.some((o) => o.value === v))
                problems.push(`${def.name}.${action.name}: unknown ${other} ${v}`);
        }
        continue;
      }
      problems.push(...transitionProblems(def, action.name, action.effect));
    }
    // A step may share its name with a handler action: that action is how the step is taken.
    const handlers = new Set(
      (def.actions ?? []).filter((a) => a.effect.kind === 'handler').map((a) => a.name),
    );
    for (const step of def.transitions ?? []) {
      if (actionNames.has(step.name) && !handlers.has(step.name))
        problems.push(`${def.name}: duplicate action ${step.name}`);
      actionNames.add(step.name);
      problems.push(...transitionProblems(def, step.name, step));
    }
  }
  return problems;
}

function transitionProblems(
  def: ResourceDef,
  name: string,
  step: Omit<LifecycleTransition, 'name' | 'label'>,
): string[] {
  const problems: string[] = [];
  const { field, from, to, when, set } = step;
  const state = def.fields[field];
  if (state?.type !== 'enum') return [`${def.name}.${name}: transition field ${field} is not an enum`];
  const values = new Set(state.options.map((o) => o.value));
  for (const v of [...from, to]) if (!values.has(v)) problems.push(`${def.name}.${name}: unknown state ${v}`);
  for (const [other, allowed] of Object.entries(when ?? {})) {
    const w = def.fields[other];
    if (w?.type !== 'enum') problems.push(`${def.name}.${name}: when-field ${other} is not an enum`);
    else
      for (const v of allowed)
        if (!w.options.some((o) => o.value === v))
          problems.push(`${def.name}.${name}: unknown ${other} ${v}`);
  }
  for (const target of Object.keys(set ?? {}))
    if (!(target in def.fields)) problems.push(`${def.name}.${name}: sets unknown field ${target}`);
  return problems;
}
