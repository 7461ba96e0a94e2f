import { ADMIN_HOME_PATH } from '@wanxiang/core';
import { useNavigate } from 'react-router-dom';
import { useServices } from '../session/services-context';
import { AuthPage } from './AuthPage';
import { LoginForm } from './LoginForm';

/** /admin/login: sign in, hand the result to the session, go to /admin. */
export default function AdminLogin() {
  const { session } = useServices();
  const navigate = useNavigate();
  return (
    <AuthPage subtitle="管理后台">
      <h1 className="wx-auth-title">账号登录</h1>
      <LoginForm
        onSignedIn={(result) => {
          session.send({ type: 'SIGNED_IN', ...result });
          navigate(ADMIN_HOME_PATH, { replace: true });
        }}
      />
    </AuthPage>
  );
}
