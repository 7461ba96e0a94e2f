/**
 * Roles and permission areas (DOMAIN.md "People and platform"). Permissions are
 * `<area>:read` / `<area>:write`. The server seeds roles from this table and enforces it;
 * the UI hides menu entries from it. One owner: here.
 */

export const PERMISSION_AREAS = [
  'system', // users, platform config, server monitor, audit logs, third-party services, posters, staff
  'oms', // stores, goods, categories, orders, printers
  'runner', // delivery runners and dispatch
  'crm', // supply chain and customer chat
  'finance', // balances, income, prepaid cards
  'marketing', // discounts, coupons, points, referrals, mini-program reach
  'bbs', // community and moderation
  'blog', // articles and photos
  'law', // document and lawyer library
  'music',
  'movie',
  'monitor', // monitoring and certificate jobs
  'apiMarket',
  'cloud', // CDN
  'merchant', // messaging-platform merchant onboarding
] as const;
export type PermissionArea = (typeof PERMISSION_AREAS)[number];
export type Permission = `${PermissionArea}:${'read' | 'write'}`;

const readWrite = (areas: readonly PermissionArea[]): Permission[] =>
  areas.flatMap((a) => [`${a}:read`, `${a}:write`] as Permission[]);

export const ROLES = {
  admin: { title: '超级管理员', permissions: readWrite(PERMISSION_AREAS) },
  operator: {
    title: '运营',
    permissions: readWrite(['oms', 'runner', 'crm', 'finance', 'marketing']),
  },
  editor: { title: '编辑', permissions: readWrite(['blog', 'law', 'bbs', 'music', 'movie']) },
  auditor: {
    title: '审计',
    permissions: PERMISSION_AREAS.map((a) => `${a}:read` as Permission),
  },
} as const satisfies Record<string, { title: string; permissions: Permission[] }>;
export type RoleName = keyof typeof ROLES;

/** The permissions a set of role names grants (unknown role names grant nothing). */
export function permissionsOf(roles: readonly string[]): Permission[] {
  const granted = new Set<Permission>();
  for (const role of roles) {
    const def = (ROLES as Record<string, { permissions: readonly Permission[] }>)[role];
    for (const p of def?.permissions ?? []) granted.add(p);
  }
  return [...granted];
}

export function can(permissions: readonly string[], area: PermissionArea, mode: 'read' | 'write'): boolean {
  return permissions.includes(`${area}:${mode}`);
}

/**
 * Whether outbound connections made for a user may reach loopback, private and link-local
 * addresses (QUALITY.md "outbound connections"): only with the monitoring permission. Everyone
 * else reaches public addresses only, so the server cannot be turned against its own network.
 */
export function mayReachPrivateNetworks(permissions: readonly string[]): boolean {
  return can(permissions, 'monitor', 'write');
}
