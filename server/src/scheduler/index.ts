/** The scheduler (README.md): tasks run at their period under a database lease, once per cluster. */
export { deleteLease, endRun, type Lease, newHolderId, readLease, renewLease, takeLease } from './lease.js';
export { type SchedulerPluginOptions, schedulerPlugin } from './plugin.js';
export { NODE_TIMERS, RunAborted, Scheduler, type SchedulerOptions, type Timers } from './scheduler.js';
export { DEFAULT_LEASE_MS, type ScheduledTask, type TaskContext } from './task.js';
