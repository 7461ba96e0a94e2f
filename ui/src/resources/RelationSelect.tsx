/**
 * Choosing a row of another resource by its name: a searchable Select that asks the target
 * resource's list with `q` (or, for a resource without keyword search, loads its first rows and
 * filters them here). The chosen rows' names come from the list's `relations`, or are fetched once.
 */
import { createResourceClient, type Row, searchableFields } from '@wanxiang/core';
import { Select, Spin } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useServices } from '../session/services-context';
import { loadedDefinition } from './definitions';

type Id = number;

interface Option {
  value: Id;
  label: string;
}

export interface RelationSelectProps {
  resource: string;
  value?: Id | Id[] | null;
  onChange?: (value: Id | Id[] | null) => void;
  multiple?: boolean;
  /** Names already known: `{'12': '朝阳门店'}`. */
  labels?: Record<string, string>;
  placeholder?: string;
  id?: string;
  disabled?: boolean;
  /** Only rows whose fields hold these values (a good's categories: of its store). */
  filters?: Record<string, string | number>;
}

const SEARCH_DELAY_MS = 300;

const optionOf = (row: Row, displayField: string): Option => ({
  value: row.id,
  label: String(row[displayField] ?? `#${row.id}`),
});
const PAGE = 20;
const LOCAL_PAGE = 100;

export function RelationSelect({
  resource,
  value,
  onChange,
  multiple = false,
  labels,
  placeholder,
  id,
  disabled,
  filters,
}: RelationSelectProps) {
  const { http } = useServices();
  const target = loadedDefinition(resource);
  const client = useMemo(() => (target ? createResourceClient(http, target) : null), [http, target]);
  const remoteSearch = target ? searchableFields(target).length > 0 : false;
  const [options, setOptions] = useState<Option[]>([]);
  const [known, setKnown] = useState<Record<string, string>>({});
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const sequence = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const displayField = target?.displayField ?? 'id';
  const toOption = (row: Row) => optionOf(row, displayField);
  const filterKey = JSON.stringify(filters ?? {});

  // Other filters, other rows: the options are loaded again when the list opens.
  useEffect(() => {
    if (filterKey === '{}') return;
    sequence.current++;
    setOptions([]);
  }, [filterKey]);

  const load = (q: string) => {
    if (!client) return;
    const mine = ++sequence.current;
    setLoading(true);
    void client
      .list({
        limit: remoteSearch ? PAGE : LOCAL_PAGE,
        ...(remoteSearch && q ? { q } : {}),
        ...(filters ? { filters } : {}),
      })
      .then((result) => {
        if (mine !== sequence.current) return;
        setLoading(false);
        setFailed(!result.success);
        setOptions(result.list.map(toOption));
      });
  };

  const search = (q: string) => {
    if (!remoteSearch) return;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => load(q.trim()), SEARCH_DELAY_MS);
  };

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const ids = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  const names = { ...known, ...labels };
  for (const o of options) names[String(o.value)] ??= o.label;
  const missing = ids.filter((v) => names[String(v)] === undefined);
  const missingKey = missing.join(',');

  useEffect(() => {
    // A value restored from a link or a saved filter: fetch its name once.
    if (!client || missingKey === '') return;
    let live = true;
    for (const rowId of missingKey.split(',').map(Number)) {
      client.get(rowId).then(
        (row) => {
          if (live) setKnown((k) => ({ ...k, [String(rowId)]: optionOf(row, displayField).label }));
        },
        () => {
          if (live) setKnown((k) => ({ ...k, [String(rowId)]: `#${rowId}` }));
        },
      );
    }
    return () => {
      live = false;
    };
  }, [client, missingKey, displayField]);

  // The chosen rows stay selectable (and labelled) even when the current search does not list them.
  const shown: Option[] = [
    ...ids
      .filter((v) => !options.some((o) => o.value === v))
      .map((v) => ({ value: v, label: names[String(v)] ?? `#${v}` })),
    ...options,
  ];

  return (
    <Select<Id | Id[]>
      id={id}
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? ids : (ids[0] ?? undefined)}
      onChange={(next) => onChange?.(next ?? null)}
      options={shown}
      allowClear
      disabled={disabled}
      placeholder={placeholder ?? `请选择${target?.title ?? ''}`}
      showSearch={
        remoteSearch
          ? { filterOption: false, onSearch: search }
          : { filterOption: true, optionFilterProp: 'label' }
      }
      onOpenChange={(open) => {
        if (open && options.length === 0) load('');
      }}
      notFoundContent={loading ? <Spin size="small" /> : failed ? '加载失败' : undefined}
      loading={loading}
      style={{ width: '100%' }}
    />
  );
}
