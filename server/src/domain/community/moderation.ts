/**
 * Moderation of topics (bbsTopics) and replies (bbsPosts), as core's `moderate` says: a new row
 * is checked by the sensitive-word filter before it is written (clean → published, hit → pending
 * with flaggedWords), an edit of its title or content is checked again, and approve/reject move
 * it. Each status change appends the author's points rows (bbsPoints) in the same transaction.
 *
 * Rows a seeder inserts are history and are not checked (the engine runs `afterCreate` only for
 * creates through the API).
 */
import {
  getResource,
  type ModeratedKind,
  type ModerationEvent,
  type ModerationOutcome,
  type ModerationStatus,
  moderate,
} from '@wanxiang/core';
import { writeWithNext } from '../../db/together.js';
import { conflict } from '../../http/envelope.js';
import { appendRowsQuery, changeRowAsDeclared } from '../../resources/actions.js';
import {
  type ActionContext,
  type ActionHandlerSpec,
  type EngineExtensions,
  type ResourceHooks,
  ROW_KEPT,
  type WriteContext,
} from '../../resources/extensions.js';
import { changeRow } from '../../resources/row-change.js';
import { modelOf, type WireRow } from '../../resources/storage.js';
import type { WordFilterCache } from './word-filter.js';

const KINDS: Record<'bbsTopics' | 'bbsPosts', ModeratedKind> = { bbsTopics: 'topic', bbsPosts: 'reply' };

/** The text the filter reads: a topic's title and content, a reply's content. */
function textOf(row: Record<string, unknown>): string {
  return [row.title, row.content].filter((v) => typeof v === 'string').join('\n');
}

async function appendPoints(ctx: WriteContext, authorId: unknown, outcome: ModerationOutcome): Promise<void> {
  if (outcome.points.length === 0 || authorId === null || authorId === undefined) return;
  // Nobody reads the rows back: sent with the transaction's next statement (db/together.ts).
  await writeWithNext(
    ctx.trx,
    appendRowsQuery(
      ctx.trx,
      getResource('bbsPoints'),
      outcome.points.map((p) => ({ userId: Number(authorId), change: p.change, reason: p.reason })),
      ctx.now,
    ),
  );
}

/** The row's columns the outcome sets. */
function valuesOf(outcome: ModerationOutcome): Record<string, unknown> {
  const values: Record<string, unknown> = { status: outcome.status };
  if (outcome.flaggedWords !== undefined) values.flaggedWords = outcome.flaggedWords;
  if (outcome.rejectReason !== undefined) values.rejectReason = outcome.rejectReason;
  return values;
}

function decide(
  kind: ModeratedKind,
  from: ModerationStatus | null,
  event: ModerationEvent,
  id: number | null,
) {
  const result = moderate(kind, from, event, id);
  if (!result.ok) throw conflict(result.message);
  return result.outcome;
}

function hooks(resource: keyof typeof KINDS, words: WordFilterCache): ResourceHooks {
  const kind = KINDS[resource];
  const flaggedIn = async (ctx: WriteContext, row: Record<string, unknown>) =>
    (await words.get(ctx.trx)).words(textOf(row));
  return {
    touches: ['bbsPoints'],
    // A new row is checked before it is written, and goes in as the check decides: never a
    // published post that was pending for a moment (and one insert, not an insert and an update).
    async beforeCreate(ctx, values) {
      const outcome = decide(
        kind,
        null,
        { type: 'submit', flaggedWords: await flaggedIn(ctx, values) },
        null,
      );
      Object.assign(values, valuesOf(outcome));
    },
    // Its points name it (回帖 #12 发布): they follow the insert, from the same check.
    async afterCreate(ctx, id, values) {
      const flaggedWords = (values.flaggedWords as string[] | undefined) ?? [];
      await appendPoints(ctx, values.authorId, decide(kind, null, { type: 'submit', flaggedWords }, id));
      return ROW_KEPT;
    },
    // An edit of the text is checked again (seeders' inserts come here too and are not checked).
    async afterWrite(ctx, id, values, before) {
      if (before === null || (!('content' in values) && !('title' in values))) return ROW_KEPT;
      // The text as it now stands: the row before, with what this write changed.
      const flaggedWords = await flaggedIn(ctx, { ...before, ...values });
      const from = (before.status as ModerationStatus | null) ?? 'pending';
      const outcome = decide(kind, from, { type: 'edit', flaggedWords }, id);
      await changeRow(ctx.trx, modelOf(ctx.def), id, ctx.now, { values: valuesOf(outcome) });
      await appendPoints(ctx, values.authorId ?? before.authorId, outcome);
    },
  };
}

function action(resource: keyof typeof KINDS, type: 'approve' | 'reject'): ActionHandlerSpec {
  const kind = KINDS[resource];
  const eventOf = (ctx: ActionContext): ModerationEvent =>
    type === 'approve' ? { type } : { type, reason: String(ctx.input.reason ?? '') };
  return {
    async run(ctx) {
      const outcome = decide(kind, ctx.row.status as ModerationStatus, eventOf(ctx), ctx.id);
      // The registry's `when` (core's MODERATION_ACTION_FROM) guards the row against a race.
      await changeRowAsDeclared(ctx, valuesOf(outcome));
      await appendPoints(ctx, ctx.row.authorId, outcome);
      ctx.touched('bbsPoints');
      return undefined;
    },
    // Core's words for why the row's state refuses the action (回帖已驳回, 帖子已发布，无需审核).
    refusal(row: WireRow) {
      const probe: ModerationEvent = type === 'approve' ? { type } : { type, reason: '-' };
      const result = moderate(kind, row.status as ModerationStatus, probe);
      return conflict(result.ok ? '当前状态不能执行此操作' : result.message);
    },
  };
}

export function registerModeration(engine: EngineExtensions, words: WordFilterCache): void {
  for (const resource of ['bbsTopics', 'bbsPosts'] as const) {
    engine.registerResourceHooks(resource, hooks(resource, words));
    engine.registerActionHandler(resource, 'approve', action(resource, 'approve'));
    engine.registerActionHandler(resource, 'reject', action(resource, 'reject'));
  }
}
