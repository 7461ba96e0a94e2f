/** A saved configuration version against the current configuration, field by field. */
import { describe, expect, it } from 'vitest';
import { countConfigChanges, defineResource, diffConfig, f, getResource } from '../../src/index';

const platform = getResource('platformConfig');

describe('diffConfig', () => {
  it('lists every platformConfig field with its label, reading values as people do', () => {
    const same = { productName: '万象', allowRegistration: true, unpaidCancelMinutes: 15 };
    const entries = diffConfig(platform, same, same);
    expect(entries.map((e) => e.path)).toEqual(Object.keys(platform.fields));
    expect(entries.every((e) => e.kind === 'same')).toBe(true);
    expect(entries.find((e) => e.path === 'allowRegistration')).toEqual({
      path: 'allowRegistration',
      label: '开放注册',
      kind: 'same',
      version: '是',
      current: '是',
    });
    expect(entries.find((e) => e.path === 'copyright')).toMatchObject({ version: '-', current: '-' });
    expect(countConfigChanges(entries)).toBe(0);
  });

  it('marks changed, added (only now) and removed (only in the version) fields', () => {
    const version = { productName: '万象', copyright: '© 2023 万象', allowRegistration: false, contact: '' };
    const current = {
      productName: '万象平台',
      copyright: null,
      allowRegistration: true,
      contact: '400-800-8000',
    };
    const byPath = Object.fromEntries(diffConfig(platform, version, current).map((e) => [e.path, e]));
    expect(byPath.productName).toMatchObject({ kind: 'changed', version: '万象', current: '万象平台' });
    expect(byPath.copyright).toMatchObject({ kind: 'removed', version: '© 2023 万象', current: '-' });
    expect(byPath.allowRegistration).toMatchObject({ kind: 'changed', version: '否', current: '是' });
    expect(byPath.contact).toMatchObject({ kind: 'added', version: '-', current: '400-800-8000' });
    expect(countConfigChanges(Object.values(byPath))).toBe(4);
  });

  it('opens nested values into one line per leaf, ignoring key order', () => {
    const def = defineResource({
      name: 'diffProbe',
      displayField: 'theme',
      title: '测试',
      route: null,
      area: 'system',
      fields: { theme: f.json('主题'), tags: f.stringList('标签') },
    });
    const version = {
      theme: { colors: { primary: '#1677ff', link: '#1677ff' }, menus: [{ name: '首页' }] },
      tags: ['a', 'b'],
    };
    const current = {
      theme: { menus: [{ name: '首页' }, { name: '关于' }], colors: { link: '#1677ff', primary: '#722ed1' } },
      tags: ['a', 'b'],
    };
    const entries = diffConfig(def, version, current);
    expect(entries.map((e) => [e.label, e.kind, e.version, e.current])).toEqual([
      ['主题 › colors › link', 'same', '#1677ff', '#1677ff'],
      ['主题 › colors › primary', 'changed', '#1677ff', '#722ed1'],
      ['主题 › menus › 0 › name', 'same', '首页', '首页'],
      ['主题 › menus › 1 › name', 'added', '-', '关于'],
      ['标签', 'same', 'a、b', 'a、b'],
    ]);
  });

  it('compares keys no definition names, after the defined ones; skips id and times', () => {
    const entries = diffConfig(
      platform,
      { productName: '万象', retiredFlag: true, id: 1, updatedAt: 'x' },
      { productName: '万象', id: 1, updatedAt: 'y' },
    );
    expect(entries.at(-1)).toEqual({
      path: 'retiredFlag',
      label: 'retiredFlag',
      kind: 'removed',
      version: '是',
      current: '-',
    });
    expect(entries.map((e) => e.path)).not.toContain('updatedAt');
  });

  it('a value that turns into an object is reported, then its leaves', () => {
    const def = defineResource({
      name: 'diffProbe2',
      displayField: 'x',
      title: '测试',
      route: null,
      area: 'system',
      fields: { x: f.json('甲') },
    });
    expect(
      diffConfig(def, { x: 'plain' }, { x: { a: 1 } }).map((e) => [e.label, e.kind, e.version, e.current]),
    ).toEqual([
      ['甲', 'removed', 'plain', '-'],
      ['甲 › a', 'added', '-', '1'],
    ]);
    expect(diffConfig(def, null, undefined)).toEqual([
      { path: 'x', label: '甲', kind: 'same', version: '-', current: '-' },
    ]);
  });
});
