import { COPYRIGHT_YEAR } from '@wanxiang/core';
import type { ReactNode } from 'react';
import { Logo } from '../screens/Logo';
import { useSiteConfig } from '../session/services-context';
import './auth-page.css';

/** The frame of the login screens: a centred card with the product name on a quiet background. */
export function AuthPage({
  subtitle,
  children,
  footer,
}: {
  subtitle: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  const { productName } = useSiteConfig();
  return (
    <div className="wx-auth">
      <main className="wx-auth-main">
        <div className="wx-auth-brand">
          <Logo size={44} />
          <div>
            <div className="wx-auth-name">{productName}</div>
            <div className="wx-auth-subtitle">{subtitle}</div>
          </div>
        </div>
        <section className="wx-auth-card">{children}</section>
        {footer}
      </main>
      <footer className="wx-copyright">
        © {COPYRIGHT_YEAR} {productName}
      </footer>
    </div>
  );
}
