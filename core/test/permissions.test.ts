/** Roles and permission areas (DOMAIN.md "People and platform"). */
import { describe, expect, it } from 'vitest';
import { can, mayReachPrivateNetworks, PERMISSION_AREAS, permissionsOf, ROLES } from '../src/index';

describe('permissionsOf', () => {
  it('admin gets read and write on every area', () => {
    const granted = permissionsOf(['admin']);
    expect(granted).toHaveLength(PERMISSION_AREAS.length * 2);
    for (const area of PERMISSION_AREAS) {
      expect(granted).toContain(`${area}:read`);
      expect(granted).toContain(`${area}:write`);
    }
  });

  it('operator gets ordering, delivery, supply chain, finance and marketing', () => {
    expect(permissionsOf(['operator']).sort()).toEqual(
      ['oms', 'runner', 'crm', 'finance', 'marketing'].flatMap((a) => [`${a}:read`, `${a}:write`]).sort(),
    );
  });

  it('editor gets blog, documents, community, music and movies', () => {
    expect(permissionsOf(['editor']).sort()).toEqual(
      ['blog', 'law', 'bbs', 'music', 'movie'].flatMap((a) => [`${a}:read`, `${a}:write`]).sort(),
    );
  });

  it('auditor reads everything and writes nothing', () => {
    const granted = permissionsOf(['auditor']);
    expect(granted.sort()).toEqual(PERMISSION_AREAS.map((a) => `${a}:read`).sort());
  });

  it('combines roles without duplicates', () => {
    const granted = permissionsOf(['editor', 'auditor', 'editor']);
    expect(new Set(granted).size).toBe(granted.length);
    expect(granted).toContain('blog:write');
    expect(granted).toContain('oms:read');
    expect(granted).not.toContain('oms:write');
  });

  it('no roles or unknown roles grant nothing', () => {
    expect(permissionsOf([])).toEqual([]);
    expect(permissionsOf(['ghost', 'toString', '__proto__'])).toEqual([]);
  });

  it('every role has a Chinese title', () => {
    for (const role of Object.values(ROLES)) expect(role.title).toMatch(/[\u4e00-\u9fff]/);
  });
});

describe('can', () => {
  it('checks one area and mode', () => {
    const editor = permissionsOf(['editor']);
    expect(can(editor, 'blog', 'read')).toBe(true);
    expect(can(editor, 'blog', 'write')).toBe(true);
    expect(can(editor, 'oms', 'read')).toBe(false);
    const auditor = permissionsOf(['auditor']);
    expect(can(auditor, 'oms', 'read')).toBe(true);
    expect(can(auditor, 'oms', 'write')).toBe(false);
    expect(can([], 'system', 'read')).toBe(false);
  });
});

describe('mayReachPrivateNetworks', () => {
  it('lets only users with the monitoring write permission reach loopback, private and link-local targets', () => {
    expect(mayReachPrivateNetworks(permissionsOf(['admin']))).toBe(true);
    // The operator runs the shops (printers included) but does not hold the monitoring permission.
    expect(mayReachPrivateNetworks(permissionsOf(['operator']))).toBe(false);
    expect(mayReachPrivateNetworks(permissionsOf(['auditor']))).toBe(false);
    expect(mayReachPrivateNetworks(['monitor:read'])).toBe(false);
    expect(mayReachPrivateNetworks(['monitor:write'])).toBe(true);
    expect(mayReachPrivateNetworks([])).toBe(false);
  });
});
