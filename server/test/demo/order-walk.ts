/**
 * Whether a stored order's status and time stamps are a walk on core's order machine (the graph
 * `lifecycleOf` derives from the orders definition): the fields stamped are exactly those of the
 * steps to its status (for a cancelled order: to a status it can be cancelled from, then the
 * cancel step), in time order. The demo's and the bench's orders are both checked with it.
 */
import { getResource, lifecycleOf, pathTo, stampsOf } from '@wanxiang/core';

const machine = lifecycleOf(getResource('orders'));
const STAMPS = [...new Set(machine.steps.flatMap(stampsOf))];
const CANCEL = machine.steps.filter((s) => s.to === 'cancelled');

/** Epoch ms of a wire time (ISO text) or of epoch ms. */
const timeOf = (value: unknown) => (typeof value === 'number' ? value : Date.parse(value as string));

/** Null when the order is a walk on the machine, else what is wrong with it. */
export function walkProblem(order: Record<string, unknown>, now = Number.POSITIVE_INFINITY): string | null {
  const set = STAMPS.filter((f) => order[f] !== null && order[f] !== undefined);
  const status = order.status as string;
  const ends = status === 'cancelled' ? CANCEL.flatMap((s) => s.from) : [status];
  for (const end of ends) {
    const walk = pathTo(machine, order, end, { avoid: machine.final });
    if (!walk) continue;
    const fields = walk.steps.flatMap(stampsOf);
    if (status === 'cancelled') fields.push(...stampsOf(CANCEL[0] as (typeof CANCEL)[number]));
    if ([...set].sort().join() !== [...fields].sort().join()) continue;
    let last = timeOf(order.createdAt);
    for (const field of fields) {
      const at = timeOf(order[field]);
      if (at < last || at > now) return `${field} out of order`;
      last = at;
    }
    return null;
  }
  return `${order.fulfilment} order ${status} with stamps ${set.join(', ')}`;
}
