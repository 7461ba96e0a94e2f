/**
 * The life cycle of a status field, derived from a resource's definition: its transition actions
 * and its other life-cycle steps (`transitions`, e.g. an order's payment and cancellation) give
 * a state graph — which step moves from which states to which, for which rows, and which fields
 * each step stamps. Generators (the demo, the bench seeder) walk it instead of writing the
 * machine out again; the registry's definition stays the one place it is written.
 */
import type { ResourceDef } from './define';

export interface LifecycleStep {
  name: string;
  label: string;
  from: readonly string[];
  to: string;
  /** Conditions on the row's other fields (`{fulfilment: ['delivery']}`); empty when none. */
  when: Readonly<Record<string, readonly string[]>>;
  /** Fields the step sets: the time it is taken ('now'), or cleared (null). */
  set: Readonly<Record<string, 'now' | null>>;
  /** An admin action (`POST …/{id}/{name}`); false for a step taken elsewhere. */
  action: boolean;
}

export interface Lifecycle {
  resource: string;
  field: string;
  /** The field's values, in their declared order. */
  states: readonly string[];
  /** States a step leaves but none leads to: where rows start. */
  initial: readonly string[];
  /** States a step leads to but none leaves: where rows end. */
  final: readonly string[];
  steps: readonly LifecycleStep[];
}

/** The state graph of `field` (default `status`): the steps that change it, actions first. */
export function lifecycleOf(def: ResourceDef, field = 'status'): Lifecycle {
  const state = def.fields[field];
  if (state?.type !== 'enum') throw new Error(`${def.name}.${field} is not an enum field`);
  const declared = [
    ...(def.actions ?? []).flatMap((a) =>
      a.effect.kind === 'transition' ? [{ ...a.effect, name: a.name, label: a.label, action: true }] : [],
    ),
    // A step with a handler action of its name is taken through that action (the order machine's).
    ...(def.transitions ?? []).map((t) => ({
      ...t,
      action: (def.actions ?? []).some((a) => a.name === t.name && a.effect.kind === 'handler'),
    })),
  ];
  const steps: LifecycleStep[] = declared
    .filter((t) => t.field === field)
    .map((t) => ({
      name: t.name,
      label: t.label,
      from: t.from,
      to: t.to,
      when: t.when ?? {},
      set: t.set ?? {},
      action: t.action,
    }));
  const states = state.options.map((o) => o.value);
  const entered = new Set(steps.map((s) => s.to));
  const left = new Set(steps.flatMap((s) => s.from));
  return {
    resource: def.name,
    field,
    states,
    initial: states.filter((s) => left.has(s) && !entered.has(s)),
    final: states.filter((s) => entered.has(s) && !left.has(s)),
    steps,
  };
}

/** Whether a step's `when` holds for a row (fields the row lacks do not hold). */
export function stepApplies(step: LifecycleStep, row: Readonly<Record<string, unknown>>): boolean {
  return Object.entries(step.when).every(([name, allowed]) => allowed.includes(String(row[name])));
}

/** The steps that leave `state` for a row, in declaration order. */
export function stepsFrom(
  lifecycle: Lifecycle,
  state: string,
  row: Readonly<Record<string, unknown>> = {},
): LifecycleStep[] {
  return lifecycle.steps.filter((s) => s.from.includes(state) && stepApplies(s, row));
}

export interface LifecyclePath {
  /** The states passed through, the initial one first and `to` last. */
  states: string[];
  /** The steps taken, one fewer than the states. */
  steps: LifecycleStep[];
}

/**
 * How a row gets from `from` (default the one initial state) to `to` by the fewest steps that
 * apply to it, never through `avoid` (e.g. a terminal state on the way); null when it cannot.
 * Among equally short ways, the steps declared first win, so the answer is stable. The ordinary
 * way comes first: the way by admin actions (the steps people take) when there is one, else by
 * every step — so an order is walked through 确认送达, not the timers' shortcut 自动完成.
 */
export function pathTo(
  lifecycle: Lifecycle,
  row: Readonly<Record<string, unknown>>,
  to: string,
  options: { from?: string; avoid?: readonly string[] } = {},
): LifecyclePath | null {
  const byActions = { ...lifecycle, steps: lifecycle.steps.filter((s) => s.action) };
  return shortestPath(byActions, row, to, options) ?? shortestPath(lifecycle, row, to, options);
}

function shortestPath(
  lifecycle: Lifecycle,
  row: Readonly<Record<string, unknown>>,
  to: string,
  options: { from?: string; avoid?: readonly string[] },
): LifecyclePath | null {
  const start = options.from ?? lifecycle.initial[0];
  if (start === undefined) return null;
  const avoid = new Set(options.avoid ?? []);
  const came = new Map<string, { prev: string; step: LifecycleStep } | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const state = queue.shift() as string;
    if (state === to) break;
    for (const step of stepsFrom(lifecycle, state, row)) {
      if (came.has(step.to) || (avoid.has(step.to) && step.to !== to)) continue;
      came.set(step.to, { prev: state, step });
      queue.push(step.to);
    }
  }
  if (!came.has(to)) return null;
  const states = [to];
  const steps: LifecycleStep[] = [];
  for (let at = came.get(to); at; at = came.get(at.prev)) {
    steps.unshift(at.step);
    states.unshift(at.prev);
  }
  return { states, steps };
}

/** The fields a step stamps with the time it is taken (`paidAt` for paying). */
export function stampsOf(step: LifecycleStep): string[] {
  return Object.entries(step.set)
    .filter(([, value]) => value === 'now')
    .map(([name]) => name);
}
