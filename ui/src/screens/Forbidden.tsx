import { ADMIN_HOME_PATH, t } from '@wanxiang/core';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router-dom';
import { PageFrame } from './PageFrame';

/** A known admin screen of an area the user's roles do not open. */
export default function Forbidden() {
  const navigate = useNavigate();
  return (
    <PageFrame>
      <Result
        status="403"
        title="403"
        subTitle="抱歉，你没有访问此页面的权限，请联系管理员开通。"
        extra={
          <Button type="primary" onClick={() => navigate(ADMIN_HOME_PATH)}>
            {t('backHome')}
          </Button>
        }
      />
    </PageFrame>
  );
}
