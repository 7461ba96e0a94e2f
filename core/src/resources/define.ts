/**
 * One declaration per resource — the registry's unit, like Django's ModelAdmin: from it the server
 * derives its table and routes, the UI its list and form, the CLI its commands, and all three the
 * same zod validation. See DOMAIN.md for the catalogue.
 */
import type { PermissionArea } from '../contract/permissions';
import type { FieldDef } from './fields';
import type { RowRule } from './row-rules';

/**
 * A domain action, `POST /api/admin/<name>/{id}/<action>`.
 * - `transition`: a state change core declares and the server executes generically — only from
 *   the listed states (anything else is a 409), setting the listed values.
 * - `handler`: the server runs a domain handler registered under the same name; the server
 *   refuses to start if one is missing, so no action in the registry is without an effect.
 */
export interface ActionDef {
  name: string;
  label: string;
  /**
   * `row` (default): on one row, `POST /api/admin/<name>/{id}/<action>`. `collection`: on the
   * resource as a whole, `POST /api/admin/<name>/<action>` with its input only — for work that
   * creates or changes many rows at once (a batch of exchange codes, a ledger adjustment for a
   * user). A collection action is always a handler and has no `when`.
   */
  scope?: 'row' | 'collection';
  /** Confirmation text; actions with one ask before running. */
  confirm?: string;
  danger?: boolean;
  /** Fields the action takes (e.g. a reason); validated like a form. */
  input?: Record<string, FieldDef>;
  /** Rules across the input's fields (row-rules.ts), checked after each field's own. */
  rules?: readonly RowRule[];
  effect:
    | {
        kind: 'transition';
        field: string;
        from: readonly string[];
        to: string;
        /** Only for rows whose other fields hold one of these values (e.g. fulfilment). */
        when?: Record<string, readonly string[]>;
        /** Other fields set by the transition: the current time, or cleared. */
        set?: Record<string, 'now' | null>;
      }
    | {
        kind: 'handler';
        /**
         * The rows it applies to (e.g. `{status: ['active']}`): the UI offers it only there and the
         * server refuses it elsewhere with a 409, in the same conditional update as the change.
         */
        when?: Record<string, readonly string[]>;
      };
}

/**
 * A step of a resource's life cycle. When the resource has a handler action of the same name, the
 * step is taken through that action (the order machine's moves); otherwise it is not an admin
 * action but taken by the customer (paying),
 * by a timer, or by a domain service that moves money with it (cancelling with its refund). Data
 * only — nothing routes it and no button offers it; it completes the state graph that
 * lifecycle.ts derives from the transitions, which the demo's and the bench's generators walk.
 */
export interface LifecycleTransition {
  name: string;
  label: string;
  field: string;
  from: readonly string[];
  to: string;
  /** Only for rows whose other fields hold one of these values. */
  when?: Record<string, readonly string[]>;
  /** Other fields set by the step: the current time, or cleared. */
  set?: Record<string, 'now' | null>;
}

/**
 * Another admin screen that lists the resource narrowed by fixed list filters — a review queue
 * over the same rows (law/doc_review: docs in review; bbs/review: pending topics and posts).
 */
export interface ResourceView {
  /** Admin route below /admin/. */
  route: string;
  /** Fixed filters in list-query form (`status: 'reviewing'`, `status_in: 'pending,rejected'`). */
  filters: Readonly<Record<string, string>>;
  /** Tab title on that screen; the resource's title when absent. */
  title?: string;
}

/**
 * Rows of another resource that point at this one, offered on each row as a link to that list
 * filtered to it (a rule's 发放记录: userCoupons whose ruleId is the rule's id).
 */
export interface RelatedList {
  label: string;
  resource: string;
  /** The other resource's filterable field holding this row's id. */
  field: string;
}

export interface ResourceDef {
  /** API path segment under /api/admin/ and the CLI's name: camelCase, plural. */
  name: string;
  title: string;
  /** Admin route below /admin/ whose screen lists it (several resources may share one). */
  route: string | null;
  area: PermissionArea;
  fields: Record<string, FieldDef>;
  /** The field shown when another resource refers to a row of this one. */
  displayField: string;
  /** `field` or `-field`; newest first when absent. */
  defaultSort?: string;
  /** DELETE marks the row deleted (kept for history and references) instead of removing it. */
  softDelete?: boolean;
  /** No create/update/delete through the generic routes (logs, ledgers written by the domain). */
  readOnly?: boolean;
  /** Rows are only created by the domain (ledgers), but may still be read and exported. */
  noCreate?: boolean;
  noDelete?: boolean;
  actions?: readonly ActionDef[];
  /** The life-cycle steps taken outside the admin's actions (see LifecycleTransition). */
  transitions?: readonly LifecycleTransition[];
  /** Further screens listing this resource through fixed filters (see ResourceView). */
  views?: readonly ResourceView[];
  /**
   * Rules across fields of one row (a 代金券 needs its 面额; an end after its start), checked on
   * the whole row — a create's values, an update's values over the stored row — by the server
   * (422 with the messages per field) and by the admin form before it sends. See row-rules.ts.
   */
  rules?: readonly RowRule[];
  /** Lists of other resources' rows that point at a row of this one (see RelatedList). */
  related?: readonly RelatedList[];
  /** Extra composite indexes, each a list of columns (`-field` for descending). */
  indexes?: readonly (readonly string[])[];
  description?: string;
}

/** Fields every row has, managed by the server. */
export const SYSTEM_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

export function defineResource<const R extends ResourceDef>(def: R): R {
  return def;
}

/** `goodsCategories` → `goods_categories`: table and column names on both databases. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

export function tableName(def: Pick<ResourceDef, 'name'>): string {
  return snakeCase(def.name);
}

export function columnName(field: string): string {
  return snakeCase(field);
}

/** Fields a client may send (not read-only). */
export function writableFields(def: ResourceDef): [string, FieldDef][] {
  return Object.entries(def.fields).filter(([, field]) => !field.readOnly);
}

/** Fields the server returns (not write-only). */
export function readableFields(def: ResourceDef): [string, FieldDef][] {
  return Object.entries(def.fields).filter(([, field]) => !field.writeOnly);
}

export function canCreate(def: ResourceDef): boolean {
  return !def.readOnly && !def.noCreate;
}

export function canUpdate(def: ResourceDef): boolean {
  return !def.readOnly && writableFields(def).length > 0;
}

export function canDelete(def: ResourceDef): boolean {
  return !def.readOnly && !def.noDelete;
}

/** Actions on one row (the row buttons, `…/{id}/<action>`). */
export function rowActions(def: ResourceDef): ActionDef[] {
  return (def.actions ?? []).filter((a) => a.scope !== 'collection');
}

/** Actions on the resource as a whole (the list's toolbar, `…/<action>`). */
export function collectionActions(def: ResourceDef): ActionDef[] {
  return (def.actions ?? []).filter((a) => a.scope === 'collection');
}
