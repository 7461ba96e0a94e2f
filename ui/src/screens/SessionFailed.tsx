import { messages } from '@wanxiang/core';
import { Button, Result, Space } from 'antd';
import { useServices, useSession } from '../session/services-context';
import { PageFrame } from './PageFrame';

/** Signed in, but the current user could not be loaded (network, server down): never a blank screen. */
export default function SessionFailed() {
  const { session } = useServices();
  const error = useSession((s) => s.context.error);
  return (
    <PageFrame>
      <Result
        status="error"
        title="无法获取当前用户信息"
        subTitle={error ?? messages.networkError}
        extra={
          <Space>
            <Button type="primary" onClick={() => session.send({ type: 'RETRY' })}>
              重试
            </Button>
            <Button onClick={() => session.send({ type: 'SIGN_OUT' })}>{messages.signOut}</Button>
          </Space>
        }
      />
    </PageFrame>
  );
}
