/**
 * commander speaks English; the product speaks Chinese. Its help headings, option notes and
 * usage errors are mapped here, in one place, rather than patched per command.
 */
import type { Argument, Command, Help, HelpConfiguration, Option } from 'commander';
import { displayWidth } from './text';

const TITLES: Record<string, string> = {
  'Usage:': '用法：',
  'Options:': '选项：',
  'Global Options:': '全局选项：',
  'Commands:': '命令：',
  'Arguments:': '参数：',
};

export const chineseHelp: HelpConfiguration = {
  // Subcommand help then lists --api-url too, which every command takes.
  showGlobalOptions: true,
  // Columns line up only if Chinese characters count as two terminal cells.
  displayWidth,
  styleTitle: (title: string) => TITLES[title] ?? title,
  subcommandTerm: (cmd: Command) =>
    [cmd.name(), cmd.options.length > 0 ? '[选项]' : '', ...cmd.registeredArguments.map(argumentTerm)]
      .filter((part) => part !== '')
      .join(' '),
  commandUsage(this: Help, cmd: Command) {
    // Same text as commander's own usage line, with its two English words translated.
    const names = [];
    for (let c: Command | null = cmd.parent; c; c = c.parent) names.unshift(c.name());
    const usage = cmd.usage().replace('[options]', '[选项]').replace('[command]', '[命令]');
    return [...names, cmd.name(), usage].filter((part) => part !== '').join(' ');
  },
  optionDescription: (option: Option) => {
    const notes: string[] = [];
    if (option.envVar !== undefined) notes.push(`环境变量 ${option.envVar}`);
    if (option.defaultValue !== undefined && (option.required || option.optional)) {
      notes.push(`默认 ${option.defaultValueDescription ?? String(option.defaultValue)}`);
    }
    return notes.length > 0 ? `${option.description}（${notes.join('，')}）` : option.description;
  },
};

function argumentTerm(argument: Argument): string {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

const ERRORS: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^error: unknown option '([^']*)'/, (flag) => `未知选项 ${flag}`],
  [/^error: unknown command '([^']*)'/, (name) => `未知命令 ${name}`],
  [/^error: option '([^']*)' argument missing/, (flags) => `选项 ${flags} 缺少值`],
  [/^error: required option '([^']*)' not specified/, (flags) => `缺少必需的选项 ${flags}`],
  [/^error: missing required argument '([^']*)'/, (name) => `缺少参数 ${name}`],
  [/^error: too many arguments/, () => '参数过多'],
  [
    /^error: option '([^']*)' argument '([^']*)' is invalid\. Allowed choices are (.*)\.$/,
    (flags, value, choices) => `选项 ${flags} 的值 ${value} 无效，可选：${choices}`,
  ],
];

/** commander's usage error as one Chinese line (plus its "did you mean" suggestion, if any). */
export function translateCommanderError(text: string): string {
  const line = text.trim();
  const suggestion = /\(Did you mean (.+)\?\)/.exec(line)?.[1];
  for (const [pattern, render] of ERRORS) {
    const match = pattern.exec(line);
    if (match) {
      const message = render(...match.slice(1).map((g) => g ?? ''));
      return `✗ ${message}${suggestion ? `（是不是 ${suggestion}？）` : ''}\n`;
    }
  }
  return `✗ ${line.replace(/^error: /, '')}\n`;
}
