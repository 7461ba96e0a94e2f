/**
 * The moderation rule of topics (bbsTopics) and replies (bbsPosts): from a row's status and what
 * happens to it, its next status and the author's community points (bbsPoints rows, appended in
 * the transaction of the status change — never edited).
 *
 * Points: the platform's published rule (the demo's 积分 bot answers "发布主题 +5，回复 +2，内容违规
 * -5", and the demo's points rows follow it); platformConfig has no community setting, so they
 * are constants here:
 *
 * - a topic earns {@link COMMUNITY_POINTS}.topic (+5), a reply .reply (+2), when it becomes
 *   published — at once when the filter finds nothing, or when a moderator approves it;
 * - the award is held only while the row is published: a published row that goes back to the
 *   queue (an edit with a flagged word) or is rejected gives it back, so "net award = award while
 *   published, 0 otherwise" holds whatever the path and no approve pays twice;
 * - a rejection is a violation the moderator confirmed and costs .penalty (−5, the rule's 内容违规
 *   -5; the demo's rejected topics carry it too), from the queue or after publication; a
 *   penalty stays when a moderator later approves the row.
 *
 * Community points are their own ledger (bbsPoints): they are not the shop's users.points, which
 * are money (100 points = 1 yuan at checkout).
 *
 * Transitions:
 *
 * | from      | submit / edit (clean) | submit / edit (flagged) | approve   | reject   |
 * |-----------|-----------------------|-------------------------|-----------|----------|
 * | (new)     | published (+award)    | pending                 |           |          |
 * | pending   | published (+award)    | pending                 | published (+award) | rejected (−penalty) |
 * | published | published             | pending (−award)        | refused   | rejected (−award −penalty) |
 * | rejected  | pending               | pending                 | published (+award) | refused |
 *
 * An edit of a rejected row goes back to the queue even when clean: editing must not undo a
 * moderator's decision by itself.
 */

export type ModerationStatus = 'pending' | 'published' | 'rejected' | 'deleted';
export type ModeratedKind = 'topic' | 'reply';

export const COMMUNITY_POINTS = {
  topic: 5,
  reply: 2,
  penalty: 5,
} as const;

/** The states each moderator action applies to (the registry's `when` is taken from here). */
export const MODERATION_ACTION_FROM = {
  approve: ['pending', 'rejected'],
  reject: ['pending', 'published'],
} as const satisfies Record<string, readonly ModerationStatus[]>;

export type ModerationEvent =
  | { type: 'submit'; flaggedWords: readonly string[] }
  | { type: 'edit'; flaggedWords: readonly string[] }
  | { type: 'approve' }
  | { type: 'reject'; reason: string };

export interface PointsChange {
  change: number;
  reason: string;
}

export interface ModerationOutcome {
  status: ModerationStatus;
  /** Present when the event sets them (a check sets flaggedWords; reject sets rejectReason). */
  flaggedWords?: string[];
  rejectReason?: string | null;
  points: PointsChange[];
}

export type ModerationResult = { ok: true; outcome: ModerationOutcome } | { ok: false; message: string };

const NOUN: Record<ModeratedKind, string> = { topic: '帖子', reply: '回帖' };

function award(kind: ModeratedKind): number {
  return kind === 'topic' ? COMMUNITY_POINTS.topic : COMMUNITY_POINTS.reply;
}

/** The reason a points row carries: 帖子 #12 审核通过. */
function pointsReason(kind: ModeratedKind, id: number | null, what: string): string {
  return `${NOUN[kind]}${id === null ? '' : ` #${id}`} ${what}`;
}

/**
 * The next state of a row of `kind` in `from` (null: being created) on `event`; `id` names the
 * row in the points rows' reasons.
 */
export function moderate(
  kind: ModeratedKind,
  from: ModerationStatus | null,
  event: ModerationEvent,
  id: number | null = null,
): ModerationResult {
  const published = (reason: string): PointsChange => ({
    change: award(kind),
    reason: pointsReason(kind, id, reason),
  });
  const takeBack = (reason: string): PointsChange => ({
    change: -award(kind),
    reason: pointsReason(kind, id, reason),
  });
  if (from === 'deleted') return { ok: false, message: `${NOUN[kind]}已删除` };
  switch (event.type) {
    case 'submit':
    case 'edit': {
      const flaggedWords = [...event.flaggedWords];
      const hit = flaggedWords.length > 0;
      if (from === null || from === 'pending') {
        return hit
          ? { ok: true, outcome: { status: 'pending', flaggedWords, points: [] } }
          : {
              ok: true,
              outcome: { status: 'published', flaggedWords, points: [published('发布')] },
            };
      }
      if (from === 'published') {
        return hit
          ? {
              ok: true,
              outcome: { status: 'pending', flaggedWords, points: [takeBack('修改后待审核，收回积分')] },
            }
          : { ok: true, outcome: { status: 'published', flaggedWords, points: [] } };
      }
      // rejected: back to the queue, with the reason of the last rejection cleared.
      return { ok: true, outcome: { status: 'pending', flaggedWords, rejectReason: null, points: [] } };
    }
    case 'approve': {
      if (!(MODERATION_ACTION_FROM.approve as readonly string[]).includes(from ?? ''))
        return { ok: false, message: `${NOUN[kind]}已发布，无需审核` };
      return {
        ok: true,
        outcome: { status: 'published', rejectReason: null, points: [published('审核通过')] },
      };
    }
    case 'reject': {
      const reason = event.reason.trim();
      if (reason === '') return { ok: false, message: '请填写驳回原因' };
      if (!(MODERATION_ACTION_FROM.reject as readonly string[]).includes(from ?? ''))
        return { ok: false, message: `${NOUN[kind]}已驳回` };
      const penalty = { change: -COMMUNITY_POINTS.penalty, reason: pointsReason(kind, id, '内容违规扣分') };
      const points: PointsChange[] =
        from === 'published' ? [takeBack('被驳回，收回积分'), penalty] : [penalty];
      return { ok: true, outcome: { status: 'rejected', rejectReason: reason, points } };
    }
  }
}
