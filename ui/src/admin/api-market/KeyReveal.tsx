/**
 * The one time a key is shown (after 创建 Key or 轮换): the key with a copy button and the warning
 * that it cannot be shown again — the server keeps only its hash.
 */
import { Alert, Modal, Typography } from 'antd';

export interface Revealed {
  key: string;
  name: string;
  rotated: boolean;
}

export default function KeyReveal({ revealed, onClose }: { revealed: Revealed | null; onClose: () => void }) {
  return (
    <Modal
      open={revealed !== null}
      title={revealed?.rotated ? `已轮换：${revealed.name}` : `已创建：${revealed?.name ?? ''}`}
      onOk={onClose}
      onCancel={onClose}
      okText="我已保存"
      cancelButtonProps={{ style: { display: 'none' } }}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        title="完整 Key 只显示这一次"
        description={
          revealed?.rotated
            ? '旧 Key 已立即失效。请复制新 Key 并妥善保存，关闭后无法再次查看，只能再次轮换。'
            : '请复制并妥善保存，关闭后无法再次查看；遗失只能轮换或吊销。'
        }
        style={{ marginBottom: 16 }}
      />
      <Typography.Paragraph
        code
        copyable={{ text: revealed?.key ?? '', tooltips: ['复制', '已复制'] }}
        data-testid="revealed-key"
        style={{ wordBreak: 'break-all', fontSize: 15 }}
      >
        {revealed?.key}
      </Typography.Paragraph>
    </Modal>
  );
}
