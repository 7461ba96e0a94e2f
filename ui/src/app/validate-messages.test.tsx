/** antd Forms inside the app speak core's form messages (spec §5), through ConfigProvider. */
import { fireEvent, render, screen } from '@testing-library/react';
import { Button, Form, Input, InputNumber } from 'antd';
import { describe, expect, it } from 'vitest';
import { makeServices } from '../test/harness';
import { Root } from './Root';

describe('validateMessages', () => {
  it('fills core’s templates with the field label', async () => {
    render(
      <Root services={makeServices()}>
        <Form onFinish={() => {}}>
          <Form.Item name="title" label="标题" rules={[{ required: true }]}>
            <Input />
          </Form.Item>
          <Form.Item name="name" label="名称" rules={[{ min: 3 }]} initialValue="ab">
            <Input />
          </Form.Item>
          <Form.Item name="count" label="数量" rules={[{ type: 'number', max: 9 }]} initialValue={12}>
            <InputNumber />
          </Form.Item>
          <Button htmlType="submit">提交</Button>
        </Form>
      </Root>,
    );
    fireEvent.click(screen.getByRole('button', { name: /提\s?交/ }));
    expect(await screen.findByText('请输入标题')).toBeTruthy();
    expect(await screen.findByText('名称最少3个字符')).toBeTruthy();
    expect(await screen.findByText('数量最大值为9')).toBeTruthy();
  });
});
