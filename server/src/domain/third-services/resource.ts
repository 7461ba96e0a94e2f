/**
 * thirdServices.test (测试): after the (empty) audited write, outside any transaction, the
 * endpoint is called under the outbound policy of the user who asked — loopback and private
 * addresses only with `monitor:write` — and the answer is the row (its secret masked, as every
 * answer has it) with `test: {reachable, httpStatus, latencyMs, error}`.
 */
import type { EngineExtensions } from '../../resources/extensions.js';
import type { WireRow } from '../../resources/storage.js';
import { policyOfUser } from '../printing/address-policy.js';
import { type ProbeResult, probeEndpoint, probeMessage } from './probe.js';

export function register(engine: EngineExtensions): void {
  engine.registerActionHandler('thirdServices', 'test', {
    // Nothing to change in the row: the audit entry records who tested what, and when.
    run: async () => undefined,
    async afterCommit(ctx, answer) {
      const policy = await policyOfUser(ctx.db, ctx.user?.id ?? null);
      const test = await probeEndpoint(String(answer.endpoint), policy);
      return { ...answer, test } as WireRow;
    },
    message: (answer) => {
      const test = (answer as WireRow & { test?: ProbeResult }).test;
      return test ? probeMessage(test) : undefined;
    },
  });
}
