/**
 * The chat-bot rule (chatBots.rules, shape keywordRules): the first rule, in order, whose
 * keyword the message contains answers with its reply. Message and keyword are compared in the
 * sensitive-word filter's normalised form (normalise.ts), so 价格, 价 格 and ＰＲＩＣＥ/Price
 * match alike. A rule may ask for an exact match (`match: 'exact'`: the whole message is the
 * keyword, e.g. "1" for a menu choice); the default is 'contains'.
 *
 * The definition has no default-reply field, so a message no rule matches gets no reply
 * (`reply: null, ruleIndex: null`); callers say so in their own words.
 */
import { z } from 'zod';
import { normalise } from './normalise';

export const keywordRuleSchema = z.object({
  keyword: z.string().trim().min(1, '关键词不能为空').max(50, '关键词最多50个字符'),
  reply: z.string().trim().min(1, '回复内容不能为空').max(1000, '回复内容最多1000个字符'),
  match: z.enum(['contains', 'exact']).optional(),
});

export type KeywordRule = z.infer<typeof keywordRuleSchema>;

export interface ChatBotReply {
  reply: string | null;
  /** Index of the matching rule in the bot's list, null when none matched. */
  ruleIndex: number | null;
}

export const CHAT_MESSAGE_MAX = 500;

/** The reply of `rules` to `message` (rules that are not a valid rule are skipped). */
export function chatBotReply(rules: unknown, message: string): ChatBotReply {
  const text = normalise(message);
  if (!Array.isArray(rules) || text === '') return { reply: null, ruleIndex: null };
  for (const [i, raw] of rules.entries()) {
    const parsed = keywordRuleSchema.safeParse(raw);
    if (!parsed.success) continue;
    const keyword = normalise(parsed.data.keyword);
    if (keyword === '') continue;
    const hit = parsed.data.match === 'exact' ? text === keyword : text.includes(keyword);
    if (hit) return { reply: parsed.data.reply, ruleIndex: i };
  }
  return { reply: null, ruleIndex: null };
}
