import { message } from 'antd';
import { useCallback } from 'react';

/**
 * Copy to the clipboard with a 已复制 toast (antd's hook API, so it inherits zh_CN and the theme).
 * Render the returned holder once in the screen.
 */
export function useCopy() {
  const [api, holder] = message.useMessage({ maxCount: 2, top: 72 });
  const copy = useCallback(
    async (text: string, what = '') => {
      try {
        await navigator.clipboard.writeText(text);
        api.success(`已复制${what ? ` ${what}` : ''}：${text.length > 40 ? `${text.slice(0, 40)}…` : text}`);
      } catch {
        api.error('复制失败：浏览器不允许访问剪贴板，请手动选择复制');
      }
    },
    [api],
  );
  return { copy, holder };
}
