import { COPYRIGHT_YEAR } from '@wanxiang/core';
import type { ReactNode } from 'react';
import { useSiteConfig } from '../session/services-context';

/** A full page for the screens outside any layout (404, 403): centred content, copyright at the foot. */
export function PageFrame({ children }: { children: ReactNode }) {
  const { productName } = useSiteConfig();
  return (
    <div className="wx-page-frame">
      <main className="wx-page-frame-body">{children}</main>
      <footer className="wx-copyright">
        © {COPYRIGHT_YEAR} {productName} · 版本 {__APP_VERSION__}
      </footer>
    </div>
  );
}
