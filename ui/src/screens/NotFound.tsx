import { ADMIN_HOME_PATH, messages, t } from '@wanxiang/core';
import { Button, Result } from 'antd';
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router-dom';
import { PageFrame } from './PageFrame';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return error.statusText || String(error.status);
  if (error instanceof Error) return error.message;
  return messages.notFoundError;
}

/**
 * Spec §2: '{path} has error {error}', a button back to /admin, the copyright line with the
 * build's version. Also the router's error screen, where {error} is what went wrong.
 */
export default function NotFound() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const error = useRouteError();
  const crashed = error instanceof Error;
  return (
    <PageFrame>
      <Result
        status={crashed ? '500' : '404'}
        title={crashed ? '页面出错了' : '404'}
        subTitle={
          <span className="wx-not-found-text">
            {t('notFound', { path: pathname, error: describe(error) })}
          </span>
        }
        extra={
          <Button type="primary" onClick={() => navigate(ADMIN_HOME_PATH)}>
            {t('backHome')}
          </Button>
        }
      />
    </PageFrame>
  );
}
