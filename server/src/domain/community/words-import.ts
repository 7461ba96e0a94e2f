/**
 * sensitiveWords importWords (批量导入): one word a line, in one transaction; words already on
 * the list (compared in the filter's normalised form, so ＷＸ and wx are one word) are skipped.
 */
import { normalise, parseWordLines } from '@wanxiang/core';
import { invalidInput } from '../../http/envelope.js';
import type { CollectionActionContext, EngineExtensions } from '../../resources/extensions.js';

const PER_STATEMENT = 500;

async function importWords(ctx: CollectionActionContext) {
  const text = String(ctx.input.words ?? '');
  const lines = parseWordLines(text);
  // Skipped: lines that repeat a word of the input or of the list.
  const given = text.split(/\r?\n/).filter((l) => normalise(l) !== '').length;
  const tooLong = lines.find((w) => w.length > 50);
  if (tooLong !== undefined)
    throw invalidInput({ words: `“${tooLong.slice(0, 10)}…”超过 50 个字，每行一个词` });
  if (lines.length === 0) throw invalidInput({ words: '请至少输入一个敏感词' });
  const existing = (await ctx.trx.selectFrom('sensitive_words').select('word').execute()) as {
    word: string;
  }[];
  const known = new Set(existing.map((r) => normalise(r.word)));
  const fresh = lines.filter((w) => !known.has(normalise(w)));
  const category = String(ctx.input.category ?? 'other');
  for (let i = 0; i < fresh.length; i += PER_STATEMENT) {
    await ctx.trx
      .insertInto('sensitive_words')
      .values(
        fresh.slice(i, i + PER_STATEMENT).map((word) => ({
          word,
          category,
          enabled: 1,
          created_at: ctx.now,
          updated_at: ctx.now,
        })),
      )
      .execute();
  }
  return { added: fresh.length, skipped: given - fresh.length };
}

export function registerWordImport(engine: EngineExtensions): void {
  engine.registerCollectionHandler('sensitiveWords', 'importWords', importWords);
}
