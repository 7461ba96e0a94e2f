import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { Pager, pageCount, pageItems } from './Pager';

const hrefOf = (p: number) => (p > 1 ? `/list?page=${p}` : '/list');

function pager(page: number, count: number, totalText?: string) {
  render(
    <MemoryRouter>
      <Pager page={page} count={count} hrefOf={hrefOf} totalText={totalText} />
    </MemoryRouter>,
  );
  return screen.queryByRole('navigation', { name: '分页' });
}

describe('Pager', () => {
  it('numbers pages with gaps around the current one', () => {
    expect(pageItems(1, 3)).toEqual([1, 2, 3]);
    expect(pageItems(6, 12)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 12]);
    expect(pageItems(12, 12)).toEqual([1, 'gap', 10, 11, 12]);
  });

  it('counts pages, one at least', () => {
    expect(pageCount(23, 10)).toBe(3);
    expect(pageCount(20, 10)).toBe(2);
    expect(pageCount(0, 10)).toBe(1);
  });

  it('renders nothing for a single page', () => {
    expect(pager(1, 1)).toBeNull();
  });

  it('links every page, marks the current one and greys the step past the end', () => {
    const nav = pager(1, 3, '共 23 篇') as HTMLElement;
    const current = within(nav).getByRole('link', { name: '第 1 页' });
    expect(current.getAttribute('aria-current')).toBe('page');
    expect(current.getAttribute('href')).toBe('/list');
    expect(within(nav).getByRole('link', { name: '第 3 页' }).getAttribute('href')).toBe('/list?page=3');
    const next = within(nav).getByRole('link', { name: '下一页' });
    expect(next.getAttribute('href')).toBe('/list?page=2');
    expect(next.getAttribute('rel')).toBe('next');
    expect(within(nav).queryByRole('link', { name: '上一页' })).toBeNull();
    expect(within(nav).getByText('上一页').getAttribute('aria-disabled')).toBe('true');
    expect(within(nav).getByText('共 23 篇')).toBeTruthy();
  });

  it('has a previous step and no next one on the last page, and no total unless given', () => {
    const nav = pager(3, 3) as HTMLElement;
    expect(within(nav).getByRole('link', { name: '上一页' }).getAttribute('rel')).toBe('prev');
    expect(within(nav).getByText('下一页').getAttribute('aria-disabled')).toBe('true');
    expect(nav.querySelector('.wx-pager-total')).toBeNull();
  });
});
