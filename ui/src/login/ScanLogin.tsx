import { Link, useNavigate } from 'react-router-dom';
import { rememberedPublicPath } from '../platform/public-path';
import { useServices } from '../session/services-context';
import { AuthPage } from './AuthPage';
import { LoginForm } from './LoginForm';

/** /scan_login: for now the password form; after signing in, back to the remembered public page. */
export default function ScanLogin() {
  const { session, storage } = useServices();
  const navigate = useNavigate();
  const back = rememberedPublicPath(storage);
  return (
    <AuthPage
      subtitle="欢迎回来"
      footer={
        <Link className="wx-auth-back" to={back}>
          ← 返回网站
        </Link>
      }
    >
      <h1 className="wx-auth-title">密码登录</h1>
      <LoginForm
        onSignedIn={(result) => {
          session.send({ type: 'SIGNED_IN', ...result });
          navigate(rememberedPublicPath(storage), { replace: true });
        }}
      />
    </AuthPage>
  );
}
