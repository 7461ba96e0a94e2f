/** The chat-bot rule: first matching rule, normalised comparison, exact match type. */
import { describe, expect, it } from 'vitest';
import { chatBotReply } from '../../src/index';

const rules = [
  { keyword: '1', reply: '菜单一', match: 'exact' },
  { keyword: '价格', reply: '价格请见官网' },
  { keyword: 'VIP', reply: '会员说明' },
  { keyword: '价格表', reply: '不会到这里：价格在前' },
];

describe('chatBotReply', () => {
  it('the first rule whose keyword the message contains', () => {
    expect(chatBotReply(rules, '请问价格表多少')).toEqual({ reply: '价格请见官网', ruleIndex: 1 });
  });
  it('compares in the normalised form: width, case, spaces', () => {
    expect(chatBotReply(rules, '价 格？')).toEqual({ reply: '价格请见官网', ruleIndex: 1 });
    expect(chatBotReply(rules, '怎么开ｖｉｐ')).toEqual({ reply: '会员说明', ruleIndex: 2 });
  });
  it('exact rules match the whole message only', () => {
    expect(chatBotReply(rules, ' １ ')).toEqual({ reply: '菜单一', ruleIndex: 0 });
    expect(chatBotReply(rules, '100')).toEqual({ reply: null, ruleIndex: null });
  });
  it('no match, an empty message, or rules that are not a list: no reply', () => {
    expect(chatBotReply(rules, '你好')).toEqual({ reply: null, ruleIndex: null });
    expect(chatBotReply(rules, '  ')).toEqual({ reply: null, ruleIndex: null });
    expect(chatBotReply(null, '价格')).toEqual({ reply: null, ruleIndex: null });
  });
  it('skips malformed rules and keeps the indexes of the stored list', () => {
    expect(chatBotReply([{ keyword: '' }, 5, { keyword: '价格', reply: '有' }], '价格')).toEqual({
      reply: '有',
      ruleIndex: 2,
    });
  });
});
