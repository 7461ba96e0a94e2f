/** A chat bot as its screen, editor and test box read it: keyword rules in order. */
import type { Row } from '@wanxiang/core';

export interface Rule {
  keyword: string;
  reply: string;
  match?: 'contains' | 'exact';
}
export type BotRow = Row & { name: string; rules: Rule[] | null; enabled: boolean };
export interface BotForm {
  name: string;
  enabled: boolean;
  rules: Rule[];
}
