/**
 * The registry: every resource of DOMAIN.md, by name. Server, UI and CLI look resources up here;
 * adding a resource is adding a definition to one of ./definitions/*.
 */
import type { ResourceDef } from './define';
import * as oms from './definitions/oms';
import * as people from './definitions/people';

/** Definition modules by area; each exports its ResourceDefs (and may export option lists). */
const MODULES: readonly Record<string, unknown>[] = [people, oms];

const isResource = (v: unknown): v is ResourceDef =>
  !!v && typeof v === 'object' && 'name' in v && 'fields' in v && 'area' in v;

export const RESOURCES: readonly ResourceDef[] = MODULES.flatMap((m) => Object.values(m).filter(isResource));

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
    }
    const actionNames = new Set<string>();
    for (const action of def.actions ?? []) {
      if (actionNames.has(action.name)) problems.push(`${def.name}: duplicate action ${action.name}`);
      actionNames.add(action.name);
      if (['export', 'count'].includes(action.name))
        problems.push(`${def.name}: action name ${action.name} is reserved`);
      if (action.effect.kind !== 'transition') continue;
      const { field, from, to, when, set } = action.effect;
      const state = def.fields[field];
      if (state?.type !== 'enum') {
        problems.push(`${def.name}.${action.name}: transition field ${field} is not an enum`);
        continue;
      }
      const values = new Set(state.options.map((o) => o.value));
      for (const v of [...from, to])
        if (!values.has(v)) problems.push(`${def.name}.${action.name}: unknown state ${v}`);
      for (const [other, allowed] of Object.entries(when ?? {})) {
        const w = def.fields[other];
        if (w?.type !== 'enum')
          problems.push(`${def.name}.${action.name}: when-field ${other} is not an enum`);
        else
          for (const v of allowed)
            if (!w.options.some((o) => o.value === v))
              problems.push(`${def.name}.${action.name}: unknown ${other} ${v}`);
      }
      for (const target of Object.keys(set ?? {}))
        if (!(target in def.fields))
          problems.push(`${def.name}.${action.name}: sets unknown field ${target}`);
    }
  }
  return problems;
}
