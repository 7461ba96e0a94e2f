/**
 * The monitorJobs actions with an effect of their own: `runNow` checks the job at once and
 * records the run like a scheduled one (the admin screen's 立即检查). The action's transaction
 * only writes its audit entry; the check (network, seconds) runs after the commit, and the
 * answer is the job as the check left it, with the check's outcome as the message.
 */
import type { EngineExtensions } from '../../resources/extensions.js';
import type { WireRow } from '../../resources/storage.js';
import { monitorRunnerOf } from './runner.js';

const outcomes = new WeakMap<WireRow, string>();

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('monitorJobs', 'runNow', {
    run: async () => undefined,
    async afterCommit(ctx, answer) {
      const runner = monitorRunnerOf(ctx.db);
      // A script writing through the engine has no runner: the scheduler checks it later.
      if (!runner) return answer;
      const recorded = await runner.checkJob(ctx.id);
      if (!recorded) return answer;
      const label =
        recorded.run.status === 'up' ? '正常' : recorded.run.status === 'down' ? '故障' : '待确认';
      outcomes.set(recorded.job, `${label}：${recorded.run.message}`);
      return recorded.job;
    },
    message: (answer) => outcomes.get(answer),
  });
}
