/**
 * Moderation of topics (bbsTopics) and replies (bbsPosts), as core's `moderate` says: a new row
 * is checked by the sensitive-word filter (clean → published, hit → pending with flaggedWords),
 * an edit of its title or content is checked again, and approve/reject move it. Each status
 * change appends the author's points rows (bbsPoints) in the same transaction.
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
import type {
  ActionContext,
  ActionHandlerSpec,
  EngineExtensions,
  ResourceHooks,
  WriteContext,
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

function decide(kind: ModeratedKind, from: ModerationStatus | null, event: ModerationEvent, id: number) {
  const result = moderate(kind, from, event, id);
  if (!result.ok) throw conflict(result.message);
  return result.outcome;
}

function hooks(resource: keyof typeof KINDS, words: WordFilterCache): ResourceHooks {
  const kind = KINDS[resource];
  // A check of the row as stored after the write (`stored`: as the insert answered it, for a
  // new row): its status and the points it moves.
  async function check(
    ctx: WriteContext,
    id: number,
    from: ModerationStatus | null,
    type: 'submit' | 'edit',
    stored?: Readonly<Record<string, unknown>>,
  ) {
    const model = modelOf(ctx.def);
    const row =
      stored ??
      ((await ctx.trx.selectFrom(model.table).selectAll().where('id', '=', id).executeTakeFirst()) as
        | Record<string, unknown>
        | undefined);
    if (!row) return;
    const filter = await words.get(ctx.trx);
    const outcome = decide(kind, from, { type, flaggedWords: filter.words(textOf(row)) }, id);
    await changeRow(ctx.trx, model, id, ctx.now, { values: valuesOf(outcome) });
    await appendPoints(ctx, row.author_id, outcome);
  }
  return {
    touches: ['bbsPoints'],
    async afterCreate(ctx, id, _values, inserted) {
      await check(ctx, id, null, 'submit', inserted);
    },
    async afterWrite(ctx, id, values, before) {
      // Creates are checked in afterCreate (seeders' inserts come here too and are not checked).
      if (before === null) return;
      if (!('content' in values) && !('title' in values)) return;
      await check(ctx, id, (before.status as ModerationStatus | null) ?? 'pending', 'edit');
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
