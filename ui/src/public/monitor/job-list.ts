/** How a push or a run-now answer changes the job list: status figures, and the bar's last 50 checks. */
import type { Job, MonitorPush, Run } from '../../monitor/api';
import { BAR_SLOTS } from '../../monitor/UptimeBar';

/** The job with `run` appended to its bar (once: a push and the run-now answer may both bring it). */
export function withRun(job: Job, run: Run | undefined): Job {
  if (!run) return job;
  const recent = job.recent ?? [];
  if (recent.some((b) => b.at === run.at && b.status === run.status)) return job;
  return {
    ...job,
    recent: [...recent, { status: run.status, at: run.at, latencyMs: run.latencyMs }].slice(-BAR_SLOTS),
  };
}

export function applyPush(jobs: readonly Job[], push: Extract<MonitorPush, { type: 'job' }>): Job[] {
  return jobs.map((job) => (job.id === push.job.id ? withRun({ ...job, ...push.job }, push.run) : job));
}
