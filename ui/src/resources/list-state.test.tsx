/** A list's view as a query string, checked against the registry with core's parser. */
import { getResource } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { readListState, toListParams, withoutPage, writeListState } from './list-state';

const stores = getResource('stores');

describe('list state', () => {
  it('reads page, size, sort, keyword and filters; accepts the pageIndex/pageSize aliases', () => {
    expect(
      readListState(stores, '?pageIndex=3&pageSize=50&sort=-name&q=%20国贸%20&status=open&tab=x'),
    ).toEqual({
      page: 3,
      limit: 50,
      sort: '-name',
      q: '国贸',
      filters: { status: 'open' },
    });
  });

  it('drops what the registry refuses instead of sending it: unknown fields, bad values, unsortable fields', () => {
    const state = readListState(
      stores,
      '?bogus=1&status=nope&sort=password&page=0&limit=9999&createdAt_gte=2024-05-01',
    );
    expect(state).toEqual({
      page: 1,
      limit: null,
      sort: null,
      q: '',
      filters: { createdAt_gte: '2024-05-01' },
    });
  });

  it('writes only what differs from the default view, and reads it back the same', () => {
    const state = { page: 2, limit: null, sort: 'name', q: '望京', filters: { status: 'paused' } };
    const search = writeListState(state);
    expect(search).toBe('?status=paused&q=%E6%9C%9B%E4%BA%AC&sort=name&page=2');
    expect(readListState(stores, search)).toEqual(state);
    expect(writeListState({ page: 1, limit: null, sort: null, q: '', filters: {} })).toBe('');
    expect(withoutPage(state)).toBe('?status=paused&q=%E6%9C%9B%E4%BA%AC&sort=name');
  });

  it('asks for the query’s page size, else the user’s preference, else 20', () => {
    const base = readListState(stores, '');
    expect(toListParams(base, undefined).limit).toBe(20);
    expect(toListParams(base, 50).limit).toBe(50);
    expect(toListParams(readListState(stores, '?limit=10'), 50).limit).toBe(10);
  });
});
