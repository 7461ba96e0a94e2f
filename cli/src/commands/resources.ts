/**
 * `wanxiang resources [name]`: the registry as the CLI sees it — which resources exist, and for
 * one resource its fields (type, Chinese label, enum values, filters) and actions. Read from
 * core's definitions; no server needed.
 */
import {
  type ActionDef,
  canCreate,
  canDelete,
  canUpdate,
  type FieldDef,
  isSortable,
  RESOURCES,
  type ResourceDef,
  SYSTEM_FIELD_DEFS,
  searchableFields,
} from '@wanxiang/core';
import type { Command } from 'commander';
import { outputWidth } from '../io/terminal';
import { renderTable } from '../output/table';
import { filterFlags, kebabCase, valueHint } from '../registry/field-flags';
import { resolveResource } from '../registry/find';
import type { Runtime } from '../runtime';

const FILTER_KINDS: Record<string, string> = { eq: '=', gte: '≥', lte: '≤', in: '多值' };

const TYPE_NAMES: Record<FieldDef['type'], string> = {
  string: '文本',
  text: '长文本',
  markdown: 'Markdown',
  password: '密码',
  integer: '整数',
  number: '数字',
  money: '金额（分）',
  boolean: '是/否',
  datetime: '时间',
  date: '日期',
  enum: '枚举',
  enumList: '多选',
  relation: '关联',
  relationList: '多个关联',
  stringList: '文本列表',
  image: '图片',
  file: '文件',
  json: 'JSON',
};

export function registerResources(program: Command, runtime: Runtime): void {
  program
    .command('resources')
    .description('列出可管理的资源；给出资源名时显示它的字段、类型、可选值、筛选条件和操作')
    .argument('[resource]', '资源名，如 orders')
    .option('--json', '以 JSON 输出（供脚本解析）')
    .addHelpText(
      'after',
      `
示例：
  $ wanxiang resources
  $ wanxiang resources orders
  $ wanxiang resources orders --json | jq '.fields[] | select(.filters | length > 0) | .name'`,
    )
    .action((token: string | undefined, options: { json?: boolean }) => {
      const { io } = runtime;
      const width = outputWidth(io.stdout, io.env);
      if (token === undefined) {
        io.stdout.write(
          options.json ? `${JSON.stringify(RESOURCES.map(summary), null, 2)}\n` : renderCatalogue(width),
        );
        return;
      }
      const def = resolveResource(token);
      io.stdout.write(
        options.json ? `${JSON.stringify(describe(def), null, 2)}\n` : renderResource(def, width),
      );
    });
}

function abilities(def: ResourceDef): string[] {
  return [
    'list',
    'get',
    'export',
    ...(canCreate(def) ? ['create'] : []),
    ...(canUpdate(def) ? ['update'] : []),
    ...(canDelete(def) ? ['delete'] : []),
  ];
}

function summary(def: ResourceDef) {
  return {
    name: def.name,
    title: def.title,
    area: def.area,
    route: def.route === null ? null : `/admin/${def.route}`,
    commands: abilities(def),
    actions: (def.actions ?? []).map((a) => a.name),
  };
}

/** Filter keys a field takes (`status`, `status_in` …), as the API names them: its filter flags. */
function filterKeys(def: ResourceDef, name: string): string[] {
  return filterFlags(def)
    .filter((flag) => flag.field === name)
    .map((flag) => flag.key);
}

function fieldJson(def: ResourceDef, name: string, field: FieldDef) {
  return {
    name,
    flag: `--${kebabCase(name)}`,
    label: field.label,
    type: field.type,
    required: field.required ?? false,
    readOnly: field.readOnly ?? false,
    writeOnly: field.writeOnly ?? false,
    createOnly: field.createOnly ?? false,
    filters: filterKeys(def, name),
    sortable: isSortable(def, name),
    searchable: field.searchable ?? false,
    ...('options' in field ? { options: field.options.map(({ value, label }) => ({ value, label })) } : {}),
    ...('resource' in field ? { resource: field.resource } : {}),
    ...(field.default !== undefined ? { default: field.default } : {}),
    ...(field.help ? { help: field.help } : {}),
  };
}

function describe(def: ResourceDef) {
  const fields = [...Object.entries(SYSTEM_FIELD_DEFS), ...Object.entries(def.fields)];
  return {
    ...summary(def),
    description: def.description ?? null,
    displayField: def.displayField,
    defaultSort: def.defaultSort ?? '-createdAt',
    softDelete: def.softDelete ?? false,
    fields: fields.map(([name, field]) => fieldJson(def, name, field)),
    actions: (def.actions ?? []).map((action) => ({
      name: action.name,
      label: action.label,
      confirm: action.confirm ?? null,
      input: Object.entries(action.input ?? {}).map(([name, field]) => fieldJson(def, name, field)),
    })),
  };
}

function renderCatalogue(width: number): string {
  const table = renderTable(
    [{ header: '资源' }, { header: '名称' }, { header: '权限' }, { header: '命令' }, { header: '操作' }],
    RESOURCES.map((def) => [
      def.name,
      def.title,
      def.area,
      abilities(def).join(' '),
      (def.actions ?? []).map((a) => a.name).join(' ') || '-',
    ]),
    width,
    { cellMax: Number.POSITIVE_INFINITY },
  );
  return `${table.text}\n运行 \`wanxiang resources <资源>\` 查看字段、类型、可选值和筛选条件\n`;
}

function fieldNotes(field: FieldDef): string {
  const notes: string[] = [];
  if (field.readOnly) notes.push('只读');
  if (field.writeOnly) notes.push('只写');
  if (field.createOnly) notes.push('仅新建时');
  if (field.unique) notes.push('唯一');
  const hint = field.type === 'money' || field.type === 'datetime' ? '' : valueHint(field);
  if (hint) notes.push(hint);
  if (field.default !== undefined && field.default !== null && !field.readOnly)
    notes.push(`默认 ${String(field.default)}`);
  return notes.join('；');
}

function renderResource(def: ResourceDef, width: number): string {
  const head = [
    `${def.title}  ${def.name}`,
    `权限 ${def.area}${def.route ? `，后台页面 /admin/${def.route}` : ''}；命令：${abilities(def).join(' ')}`,
  ];
  if (def.description) head.push(def.description);
  const fields = [...Object.entries(SYSTEM_FIELD_DEFS), ...Object.entries(def.fields)];
  const yes = (b: boolean) => (b ? '✓' : '');
  const table = renderTable(
    [
      { header: '字段' },
      { header: '名称' },
      { header: '类型' },
      { header: '必填' },
      { header: '筛选' },
      { header: '排序' },
      { header: '搜索' },
      { header: '说明' },
    ],
    fields.map(([name, field]) => {
      const filters = filterKeys(def, name);
      return [
        name,
        field.label,
        field.type === 'relation' || field.type === 'relationList'
          ? `${TYPE_NAMES[field.type]} → ${field.resource}`
          : TYPE_NAMES[field.type],
        yes(field.required ?? false),
        filters.length === 0 ? '' : filters.map((key) => FILTER_KINDS[key.split('_')[1] ?? 'eq']).join(' '),
        yes(isSortable(def, name)),
        yes(searchableFields(def).includes(name)),
        fieldNotes(field),
      ];
    }),
    width,
    // Enum values are worth a long line: the notes are cut only at the terminal's edge.
    { cellMax: Number.POSITIVE_INFINITY },
  );
  const lines = [...head, '', table.text.trimEnd()];
  if (table.omitted.length > 0)
    lines.push(`（终端宽度不够，未显示：${table.omitted.join('、')}；--json 查看全部）`);
  const actions = def.actions ?? [];
  if (actions.length > 0) {
    lines.push('', '操作（wanxiang action <资源> <id> <操作>）：');
    const width = Math.max(...actions.map((a) => a.name.length));
    for (const action of actions)
      lines.push(`  ${action.name.padEnd(width)}  ${action.label}${actionNotes(action)}`);
  }
  lines.push(
    '',
    `筛选：wanxiang list ${def.name} --<字段> 值，范围 --<字段>-gte / --<字段>-lte，多值 --<字段>-in a,b`,
    `详见 wanxiang list ${def.name} --help`,
  );
  return `${lines.join('\n')}\n`;
}

function actionNotes(action: ActionDef): string {
  const notes: string[] = [];
  const inputs = Object.entries(action.input ?? {});
  if (inputs.length > 0)
    notes.push(`参数 ${inputs.map(([name, f]) => `--${kebabCase(name)}（${f.label}）`).join(' ')}`);
  if (action.confirm) notes.push('需确认');
  return notes.length > 0 ? `（${notes.join('；')}）` : '';
}
