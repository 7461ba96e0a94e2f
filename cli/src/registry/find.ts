/**
 * From what an operator typed to a registry resource (or action). Spellings that mean the
 * same resource are accepted (`member-levels`, `member_levels`, `MemberLevels`, the Chinese
 * title); anything else is a usage error naming the closest resource.
 */
import { type ActionDef, findResource, RESOURCES, type ResourceDef } from '@wanxiang/core';
import { CliError, ExitCode } from '../errors';
import { suggestSimilar } from './suggest';

const squash = (text: string) => text.replace(/[-_\s]/g, '').toLowerCase();

/** The resource an operator meant, or undefined when the name is unknown. */
export function lookupResource(token: string): ResourceDef | undefined {
  const exact = findResource(token);
  if (exact) return exact;
  const wanted = squash(token);
  const bySpelling = RESOURCES.find((r) => squash(r.name) === wanted);
  if (bySpelling) return bySpelling;
  // A Chinese title names a resource only when no other resource shares it.
  const byTitle = RESOURCES.filter((r) => r.title === token.trim());
  return byTitle.length === 1 ? byTitle[0] : undefined;
}

export function resolveResource(token: string): ResourceDef {
  const def = lookupResource(token);
  if (def) return def;
  const suggestion = suggestSimilar(
    token,
    RESOURCES.map((r) => r.name),
  );
  const guess = suggestion ? findResource(suggestion) : undefined;
  throw new CliError(`未知资源 ${token}${guess ? `（是不是 ${guess.name}，${guess.title}？）` : ''}`, {
    exitCode: ExitCode.usage,
    hint: '运行 `wanxiang resources` 查看全部资源',
  });
}

export function lookupAction(def: ResourceDef, token: string): ActionDef | undefined {
  const actions = def.actions ?? [];
  return (
    actions.find((a) => a.name === token) ??
    actions.find((a) => squash(a.name) === squash(token)) ??
    actions.find((a) => a.label === token.trim())
  );
}

export function resolveAction(def: ResourceDef, token: string): ActionDef {
  const action = lookupAction(def, token);
  if (action) return action;
  const actions = def.actions ?? [];
  if (actions.length === 0) {
    throw new CliError(`${def.title}（${def.name}）没有可执行的操作`, { exitCode: ExitCode.usage });
  }
  const suggestion = suggestSimilar(
    token,
    actions.map((a) => a.name),
  );
  throw new CliError(`${def.title}没有操作 ${token}${suggestion ? `（是不是 ${suggestion}？）` : ''}`, {
    exitCode: ExitCode.usage,
    hint: `可用的操作：${actions.map((a) => `${a.name}（${a.label}）`).join('、')}`,
  });
}

/** A row id as typed: a positive integer, else a usage error. */
export function parseId(text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw new CliError(`ID 须为正整数：${text}`, { exitCode: ExitCode.usage });
  }
  return Number(text);
}
