/**
 * The control of an image field: the address as text (an external https:// image still works) and
 * 上传图片, which sends the picked file to POST /api/admin/uploads?resource=<name> (the server
 * checks type, size and the resource's write permission, and makes the thumbnail) and fills the
 * field with the stored file's /api/files/… address.
 */
import { UploadOutlined } from '@ant-design/icons';
import { isApiError, type SuccessEnvelope } from '@wanxiang/core';
import { App, Button, Input, Space } from 'antd';
import { type ChangeEvent, useRef, useState } from 'react';
import { useServices } from '../session/services-context';

export const UPLOAD_PATH = '/api/admin/uploads';
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
const ACCEPT = 'image/jpeg,image/png,image/webp,image/gif';

export interface ImageUploadInputProps {
  /** The resource the image belongs to: its write permission allows the upload. */
  resource: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  id?: string;
  disabled?: boolean;
}

const shown = (url: string | null | undefined) => !!url && /^(\/api\/files\/|https?:\/\/)/.test(url);

export function ImageUploadInput({ resource, value, onChange, id, disabled }: ImageUploadInputProps) {
  const { http } = useServices();
  const { message } = App.useApp();
  const picker = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File) => {
    if (file.size > MAX_UPLOAD_BYTES) {
      message.error('文件过大，图片最大 10 MB');
      return;
    }
    const body = new FormData();
    body.append('file', file, file.name);
    setUploading(true);
    try {
      const answer = await http.request<SuccessEnvelope<{ url: string }>>(UPLOAD_PATH, {
        method: 'POST',
        query: { resource },
        body,
        // Success and refusals are reported here, next to the field.
        kind: 'silent',
      });
      onChange?.(answer.data.url);
      message.success('上传成功');
    } catch (error) {
      message.error(isApiError(error) ? error.message : '上传失败，请检查网络后重试');
    } finally {
      setUploading(false);
    }
  };

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void upload(file);
  };

  return (
    <div className="wx-image-input">
      {shown(value) && (
        <a
          href={value ?? undefined}
          target="_blank"
          rel="noopener noreferrer"
          className="wx-image-input-preview"
        >
          <img src={value ?? undefined} alt="当前图片" />
        </a>
      )}
      <Space.Compact className="wx-image-input-row">
        <Input
          id={id}
          value={value ?? ''}
          onChange={(event) => onChange?.(event.target.value === '' ? null : event.target.value)}
          placeholder="上传图片，或填写图片地址（https://… 或 /api/files/…）"
          allowClear
          disabled={disabled}
        />
        <Button
          icon={<UploadOutlined />}
          loading={uploading}
          disabled={disabled}
          onClick={() => picker.current?.click()}
        >
          上传图片
        </Button>
      </Space.Compact>
      <input
        ref={picker}
        type="file"
        accept={ACCEPT}
        // Not `hidden`: antd's form styles give file inputs display: block.
        style={{ display: 'none' }}
        aria-label="选择要上传的图片"
        data-upload-resource={resource}
        onChange={picked}
      />
      <div className="wx-image-input-hint">支持 JPEG、PNG、WebP、GIF，最大 10 MB；上传后自动生成缩略图</div>
    </div>
  );
}
