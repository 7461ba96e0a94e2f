/**
 * Which HTTP status codes count as "up" for a monitor job: the job's `acceptedStatus`, a list of
 * codes and inclusive ranges such as `200-299,301` (the monitorJobs definition's pattern).
 */

/** The ranges of a spec, each `[from, to]` inclusive; a single code is `[code, code]`. */
export function parseAcceptedStatus(spec: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (const part of spec.split(',')) {
    const text = part.trim();
    if (text === '') continue;
    const [a, b] = text.split('-').map((s) => Number.parseInt(s.trim(), 10));
    if (a === undefined || !Number.isFinite(a)) continue;
    const to = b === undefined || !Number.isFinite(b) ? a : b;
    ranges.push(a <= to ? [a, to] : [to, a]);
  }
  return ranges;
}

/** Whether `code` is accepted by `spec`; an empty spec means the default `200-299`. */
export function statusAccepted(code: number, spec: string): boolean {
  const ranges = parseAcceptedStatus(spec);
  const effective = ranges.length > 0 ? ranges : [[200, 299] as [number, number]];
  return effective.some(([from, to]) => code >= from && code <= to);
}
