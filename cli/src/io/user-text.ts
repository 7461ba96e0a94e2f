/** How a signed-in user reads in the terminal, shared by `login` and `whoami`. */
import { type CurrentUser, formatDateTime, ROLES } from '@wanxiang/core';
import { formatBlock } from './text';

const NONE = '（无）';

/** `admin（超级管理员）`: the name scripts use, with the title people know. */
export function formatRoles(roles: readonly string[]): string {
  if (roles.length === 0) return NONE;
  return roles
    .map((role) => {
      const title = (ROLES as Record<string, { title: string } | undefined>)[role]?.title;
      return title ? `${role}（${title}）` : role;
    })
    .join('、');
}

export function formatUser(user: CurrentUser, apiUrl: string, expire: number | undefined): string {
  const rows: Array<[string, string]> = [
    ['服务', apiUrl],
    ['用户名', user.username],
    ['昵称', user.nickname || '（未设置）'],
    ['角色', formatRoles(user.roles)],
    ['权限', user.permissions.length > 0 ? user.permissions.join(', ') : NONE],
  ];
  if (expire) rows.push(['登录有效期至', formatDateTime(expire)]);
  return formatBlock(rows);
}
