/**
 * Records, through xstate's inspection API, which states a machine's actors were in and which
 * transitions of the definition they took — so a test can assert "every state reached, every
 * transition taken" (ARCHITECTURE.md "Tests") against the machine's own definition.
 */
import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from 'xstate';

function describeTransition(t: AnyTransitionDefinition): string {
  const guard = t.guard
    ? `[${typeof t.guard === 'string' ? t.guard : (t.guard as { type?: string }).type}]`
    : '';
  const targets = t.target?.map((n: AnyStateNode) => n.id).join(',') ?? '(stay)';
  // Invocation events carry a generated id (xstate.done.actor.0.login.submitting): keep the kind.
  const event = t.eventType.replace(/^(xstate\.(done|error)\.actor)\..*$/, '$1');
  return `${t.source.id} --${event}${guard}--> ${targets}`;
}

function walk(node: AnyStateNode, visit: (node: AnyStateNode) => void): void {
  visit(node);
  for (const child of Object.values(node.states)) walk(child as AnyStateNode, visit);
}

/** Every state id of the machine below its root. */
export function statesOf(machine: AnyStateMachine): string[] {
  const ids: string[] = [];
  walk(machine.root, (node) => {
    if (node !== machine.root) ids.push(node.id);
  });
  return ids.sort();
}

/** Every transition of the machine, eventless and invocation ones included. */
export function transitionsOf(machine: AnyStateMachine): string[] {
  const all = new Set<string>();
  walk(machine.root, (node) => {
    for (const list of node.transitions.values()) for (const t of list) all.add(describeTransition(t));
    for (const t of node.always ?? []) all.add(describeTransition(t));
  });
  return [...all].sort();
}

function activeIds(value: unknown, prefix: string, out: Set<string>): void {
  if (typeof value === 'string') {
    out.add(`${prefix}.${value}`);
    return;
  }
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    out.add(`${prefix}.${key}`);
    activeIds(child, `${prefix}.${key}`, out);
  }
}

export interface Trace {
  /** Pass as `createActor(machine, { inspect: trace.inspect })`. */
  inspect(event: InspectionEvent): void;
  states: Set<string>;
  transitions: Set<string>;
}

export function trace(machineId: string): Trace {
  const states = new Set<string>();
  const transitions = new Set<string>();
  return {
    states,
    transitions,
    inspect(event) {
      // Only the machine itself, not the promise actors it invokes.
      if (event.actorRef.sessionId !== event.rootId) return;
      if (event.type === '@xstate.microstep') {
        for (const t of event._transitions) {
          transitions.add(describeTransition(t));
          // A transient state (no snapshot ever shows it) is proven entered by leaving it.
          states.add(t.source.id);
        }
      }
      if ('snapshot' in event)
        activeIds((event.snapshot as unknown as { value: unknown }).value, machineId, states);
    },
  };
}
