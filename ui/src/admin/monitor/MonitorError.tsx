import { describeFailure } from '@wanxiang/core';
import { Button, Result } from 'antd';
import { useRevalidator, useRouteError } from 'react-router-dom';

/** The figures could not be loaded: say why, offer a retry — never a blank screen. */
export default function MonitorError() {
  const error = useRouteError();
  const revalidator = useRevalidator();
  const failure = describeFailure(error);
  return (
    <section className="wx-admin-panel">
      <Result
        status="warning"
        title="服务器监控数据加载失败"
        subTitle={failure.code ? `${failure.code} ${failure.message}` : failure.message}
        extra={
          <Button
            type="primary"
            loading={revalidator.state === 'loading'}
            onClick={() => revalidator.revalidate()}
          >
            重试
          </Button>
        }
      />
    </section>
  );
}
