/**
 * Where a screen's drawers open: beside the menu (its width is a root CSS variable the admin
 * layout sets) and below the header and tab bar, which stay usable — a half-done drawer may wait
 * in its tab while the user looks at another screen (多标签页).
 */
export const SCREEN_DRAWER_STYLE = { top: 104, left: 'var(--wx-admin-sider-width, 0px)' } as const;
