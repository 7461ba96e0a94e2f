/** The moderation rule: every transition, its points, and the refusals. */
import { describe, expect, it } from 'vitest';
import { COMMUNITY_POINTS, type ModerationStatus, moderate } from '../../src/index';

const ok = (r: ReturnType<typeof moderate>) => {
  if (!r.ok) throw new Error(r.message);
  return r.outcome;
};
const sum = (r: ReturnType<typeof moderate>) => ok(r).points.reduce((a, p) => a + p.change, 0);

describe('moderate: a new topic or reply', () => {
  it('clean: published at once, with the publication points', () => {
    expect(ok(moderate('topic', null, { type: 'submit', flaggedWords: [] }, 12))).toEqual({
      status: 'published',
      flaggedWords: [],
      points: [{ change: COMMUNITY_POINTS.topic, reason: '帖子 #12 发布' }],
    });
    expect(sum(moderate('reply', null, { type: 'submit', flaggedWords: [] }))).toBe(2);
  });
  it('flagged: pending with the words, no points', () => {
    expect(ok(moderate('topic', null, { type: 'submit', flaggedWords: ['加微信'] }))).toEqual({
      status: 'pending',
      flaggedWords: ['加微信'],
      points: [],
    });
  });
});

describe('moderate: edits re-check', () => {
  it('a published row edited with a flagged word goes back to the queue and gives the award back', () => {
    const r = ok(moderate('topic', 'published', { type: 'edit', flaggedWords: ['赌博'] }, 3));
    expect(r.status).toBe('pending');
    expect(r.points).toEqual([{ change: -5, reason: '帖子 #3 修改后待审核，收回积分' }]);
  });
  it('a published row edited clean stays published, no points', () => {
    expect(ok(moderate('reply', 'published', { type: 'edit', flaggedWords: [] }))).toMatchObject({
      status: 'published',
      points: [],
    });
  });
  it('a pending row edited clean is published with the award', () => {
    expect(sum(moderate('topic', 'pending', { type: 'edit', flaggedWords: [] }))).toBe(5);
  });
  it('a rejected row edited goes back to the queue even when clean', () => {
    expect(ok(moderate('topic', 'rejected', { type: 'edit', flaggedWords: [] }))).toMatchObject({
      status: 'pending',
      rejectReason: null,
      points: [],
    });
  });
});

describe('moderate: approve and reject', () => {
  it('approve from pending or rejected publishes with the award', () => {
    for (const from of ['pending', 'rejected'] as const) {
      expect(ok(moderate('reply', from, { type: 'approve' }, 7))).toEqual({
        status: 'published',
        rejectReason: null,
        points: [{ change: 2, reason: '回帖 #7 审核通过' }],
      });
    }
  });
  it('approve of a published row is refused', () => {
    expect(moderate('topic', 'published', { type: 'approve' })).toEqual({
      ok: false,
      message: '帖子已发布，无需审核',
    });
  });
  it('reject from the queue: rejected with the reason, the violation penalty', () => {
    expect(ok(moderate('topic', 'pending', { type: 'reject', reason: ' 广告 ' }, 4))).toEqual({
      status: 'rejected',
      rejectReason: '广告',
      points: [{ change: -5, reason: '帖子 #4 内容违规扣分' }],
    });
  });
  it('reject after publication: the award back and the penalty, two rows', () => {
    expect(ok(moderate('topic', 'published', { type: 'reject', reason: '广告' }, 9)).points).toEqual([
      { change: -5, reason: '帖子 #9 被驳回，收回积分' },
      { change: -5, reason: '帖子 #9 内容违规扣分' },
    ]);
    expect(sum(moderate('reply', 'published', { type: 'reject', reason: '灌水' }))).toBe(-7);
  });
  it('reject needs a reason and a rejectable state', () => {
    expect(moderate('topic', 'pending', { type: 'reject', reason: '  ' })).toEqual({
      ok: false,
      message: '请填写驳回原因',
    });
    expect(moderate('reply', 'rejected', { type: 'reject', reason: 'x' })).toEqual({
      ok: false,
      message: '回帖已驳回',
    });
    expect(moderate('reply', 'deleted', { type: 'approve' })).toEqual({ ok: false, message: '回帖已删除' });
  });
  it('invariant: on any walk, the award part of the points is the award exactly while published', () => {
    // Walk every sequence of 4 events from a new topic; penalties are counted apart.
    const events = [
      { type: 'edit', flaggedWords: [] },
      { type: 'edit', flaggedWords: ['x'] },
      { type: 'approve' },
      { type: 'reject', reason: 'r' },
    ] as const;
    const walk = (status: ModerationStatus, awarded: number, depth: number): void => {
      expect(awarded).toBe(status === 'published' ? COMMUNITY_POINTS.topic : 0);
      if (depth === 0) return;
      for (const e of events) {
        const r = moderate('topic', status, e);
        if (!r.ok) continue;
        const award = r.outcome.points.filter((p) => !p.reason.includes('内容违规'));
        walk(r.outcome.status, awarded + award.reduce((a, p) => a + p.change, 0), depth - 1);
      }
    };
    for (const flagged of [[], ['加微信']]) {
      const first = ok(moderate('topic', null, { type: 'submit', flaggedWords: flagged }));
      walk(
        first.status,
        first.points.reduce((a, p) => a + p.change, 0),
        4,
      );
    }
  });
});
