/**
 * The filter form above a list: a keyword box when the resource has searchable fields, then a
 * control per filterable field (enum → Select, relation → remote Select by name, number and money
 * → a range, dates → a range picker). 查询 (or Enter) writes them into the list's query; the query
 * (a reload, a saved filter, the back button, a shared link) fills them back. Plain controlled
 * inputs rather than antd's Form: the form engine stays out of the first list's JavaScript.
 */
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { searchableFields } from '@wanxiang/core';
import { Button, Select, Space } from 'antd';
// The plain input alone: antd's Input index brings TextArea, Password, Search and OTP along.
import Input from 'antd/es/input/Input';
import { type ReactNode, Suspense, useEffect, useId, useMemo, useState } from 'react';
import { textWidth } from './columns';
import type { ControlProps } from './control-props';
import { activeFilterCount, type FilterDef, filtersOf, filtersToQuery, queryToFilters } from './filters';
import { DateRangeFilter, NumberRangeFilter } from './lazy-parts';
import { RelationSelect } from './RelationSelect';
import type { ListController } from './useListController';

/** Filters shown before 展开. */
const COLLAPSED = 3;

type Values = Record<string, unknown>;

function FilterControl({
  filter,
  labels,
  ...control
}: ControlProps & { filter: FilterDef; labels?: Record<string, string> }): ReactNode {
  const { field, kind } = filter;
  const { id, value, onChange } = control;
  switch (kind) {
    case 'select': {
      const options =
        field.type === 'boolean'
          ? [
              { value: 'true', label: '是' },
              { value: 'false', label: '否' },
            ]
          : field.type === 'enum' || field.type === 'enumList'
            ? field.options.map((o) => ({ value: o.value, label: o.label }))
            : [];
      return (
        <Select
          id={id}
          value={value ?? undefined}
          onChange={(v) => onChange(v)}
          options={options}
          allowClear
          placeholder="全部"
          style={{ width: '100%' }}
        />
      );
    }
    case 'relation':
      return field.type === 'relation' ? (
        <RelationSelect
          id={id}
          resource={field.resource}
          labels={labels}
          placeholder="全部"
          value={(value as number | undefined) ?? null}
          onChange={(v) => onChange(v ?? undefined)}
        />
      ) : null;
    case 'numberRange':
      return (
        <Suspense fallback={<Input disabled placeholder="最小 ~ 最大" />}>
          <NumberRangeFilter field={field} {...control} />
        </Suspense>
      );
    case 'dateRange':
      return (
        <Suspense fallback={<Input disabled placeholder="开始日期 → 结束日期" />}>
          <DateRangeFilter
            id={id}
            field={field}
            value={value as (string | undefined)[] | undefined}
            onChange={onChange}
          />
        </Suspense>
      );
    case 'text':
      return (
        <Input
          id={id}
          value={(value as string | undefined) ?? ''}
          onChange={(e) => onChange(e.target.value || undefined)}
          allowClear
          placeholder={`请输入${field.label}`}
        />
      );
  }
}

export function FilterBar({ controller }: { controller: ListController }) {
  const { def, state, relations } = controller;
  const fixed = controller.fixedFilters;
  // What the screen fixes (a review queue's status) is not offered.
  const filters = useMemo(
    () =>
      filtersOf(def).filter(
        (f) =>
          !(
            f.name in fixed ||
            `${f.name}_in` in fixed ||
            `${f.name}_gte` in fixed ||
            `${f.name}_lte` in fixed
          ),
      ),
    [def, fixed],
  );
  const searchable = useMemo(() => searchableFields(def), [def]);
  const [expanded, setExpanded] = useState(false);
  const [values, setValues] = useState<Values>({});
  const idBase = useId();

  // The query is the truth: a reload, a saved filter or the back button refill the controls.
  useEffect(() => {
    setValues({ q: state.q, ...queryToFilters(filters, state.filters) });
  }, [filters, state.q, state.filters]);

  if (filters.length === 0 && searchable.length === 0) return null;

  const submit = () => {
    const q = typeof values.q === 'string' ? values.q : '';
    controller.setFilters(filtersToQuery(filters, values), q);
  };
  const reset = () => {
    setValues({});
    controller.setFilters({}, '');
  };
  const control = (key: string) => ({
    id: `${idBase}-${key}`,
    value: values[key],
    onChange: (value: unknown) => setValues((v) => ({ ...v, [key]: value })),
  });

  const searchLabels = searchable.map((name) => def.fields[name]?.label).filter(Boolean);
  const keywordLabel =
    searchLabels.length > 2 ? `${searchLabels.slice(0, 2).join('、')}等` : searchLabels.join('、');
  const items = [
    ...(searchable.length > 0
      ? [
          {
            key: 'q',
            label: '关键字',
            control: (
              <Input
                id={`${idBase}-q`}
                value={(values.q as string | undefined) ?? ''}
                onChange={(e) => setValues((v) => ({ ...v, q: e.target.value }))}
                allowClear
                placeholder={`搜索${keywordLabel}`}
              />
            ),
          },
        ]
      : []),
    ...filters.map((f) => ({
      key: f.name,
      label: f.field.label,
      control: <FilterControl filter={f} labels={relations[f.name]} {...control(f.name)} />,
    })),
  ];
  // One label width for the whole bar, so the controls line up in columns.
  const labelWidth = Math.max(...items.map((i) => textWidth(i.label))) + 12;
  const collapsible = items.length > COLLAPSED;
  const shown = collapsible && !expanded ? items.slice(0, COLLAPSED) : items;
  const hiddenFilters = filters.slice(COLLAPSED - (searchable.length > 0 ? 1 : 0));
  const hiddenActive = collapsible && !expanded ? activeFilterCount(hiddenFilters, state.filters) : 0;

  return (
    <form
      className="wx-filter-bar"
      aria-label={`筛选${def.title}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="wx-filter-grid">
        {shown.map((item) => (
          <div key={item.key} className="wx-filter-item">
            <label
              htmlFor={`${idBase}-${item.key}`}
              className="wx-filter-label"
              style={{ width: labelWidth }}
            >
              {item.label}
            </label>
            <div className="wx-filter-control">{item.control}</div>
          </div>
        ))}
        <div className="wx-filter-buttons">
          <Space>
            <Button type="primary" htmlType="submit">
              查询
            </Button>
            <Button onClick={reset}>重置</Button>
            {collapsible && (
              <Button type="link" onClick={() => setExpanded((e) => !e)} className="wx-filter-toggle">
                {expanded ? '收起' : `展开${hiddenActive > 0 ? `（${hiddenActive}）` : ''}`}
                {expanded ? <UpOutlined /> : <DownOutlined />}
              </Button>
            )}
          </Space>
        </div>
      </div>
    </form>
  );
}
