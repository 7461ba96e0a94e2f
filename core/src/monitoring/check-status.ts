/**
 * The heartbeat rule: from a job's status before a check and the check's result, its status
 * after, whether the check is "important" (the status flipped) and which alert it raises.
 * It is Uptime Kuma's rule, so users coming from Kuma see the same behaviour:
 *
 * - a failure while retries remain keeps the job `pending` (no alert), counting the retry;
 * - a failure with no retry left makes it `down`; that flip is important and alerts 'down',
 *   unless it was already down (a long outage alerts once, not at every check);
 * - a success makes it `up` and clears the retries; coming back from `down` is important and
 *   alerts 'up'; the very first check (pending, no retry counted) is important without alert,
 *   so the history marks where monitoring started.
 */

export type JobCheckStatus = 'up' | 'down' | 'pending';

export interface JobStatusInput {
  previous: JobCheckStatus;
  retryCount: number;
  maxRetries: number;
  ok: boolean;
}

export interface JobStatusOutcome {
  status: JobCheckStatus;
  retryCount: number;
  important: boolean;
  alert: 'down' | 'up' | null;
}

export function nextJobStatus({ previous, retryCount, maxRetries, ok }: JobStatusInput): JobStatusOutcome {
  if (ok) {
    if (previous === 'down') return { status: 'up', retryCount: 0, important: true, alert: 'up' };
    const first = previous === 'pending' && retryCount === 0;
    return { status: 'up', retryCount: 0, important: first, alert: null };
  }
  if (previous === 'down') return { status: 'down', retryCount, important: false, alert: null };
  if (retryCount < maxRetries)
    return { status: 'pending', retryCount: retryCount + 1, important: false, alert: null };
  return { status: 'down', retryCount, important: true, alert: 'down' };
}
