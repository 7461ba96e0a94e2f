/**
 * The control of an image or file field: the address as text (an external https:// file still
 * works) and an upload button, which sends the picked file to the server's endpoint for that kind
 * (the server checks the type by magic bytes, the size and the caller's write permission; images
 * also get a thumbnail) and fills the field with the stored file's /api/files/… address.
 */
import { UploadOutlined } from '@ant-design/icons';
import { isApiError, type SuccessEnvelope } from '@wanxiang/core';
import { App, Button, Input, Space } from 'antd';
import { type ChangeEvent, type ReactNode, useRef, useState } from 'react';
import { useServices } from '../session/services-context';

interface UploadKind {
  /** POST endpoint; `resource` goes in the query where the server needs it for the permission. */
  path: string;
  sendsResource: boolean;
  accept: string;
  maxBytes: number;
  /** 图片 / 音频: the button says 上传{what}, messages name it. */
  what: string;
  hint: string;
  preview: (url: string) => ReactNode;
}

/** The endpoints: server/src/domain/blog/uploads.ts (images) and server/src/domain/media (audio). */
export const UPLOAD_KINDS = {
  image: {
    path: '/api/admin/uploads',
    sendsResource: true,
    accept: 'image/jpeg,image/png,image/webp,image/gif',
    maxBytes: 10 * 1024 * 1024,
    what: '图片',
    hint: '支持 JPEG、PNG、WebP、GIF，最大 10 MB；上传后自动生成缩略图',
    preview: (url) => <img src={url} alt="当前图片" />,
  },
  audio: {
    path: '/api/admin/media/audio',
    sendsResource: false,
    accept: 'audio/mpeg,audio/wav,audio/ogg,audio/mp4,audio/x-m4a',
    maxBytes: 30 * 1024 * 1024,
    what: '音频',
    hint: '支持 MP3、WAV、OGG、M4A，最大 30 MB',
    // biome-ignore lint/a11y/useMediaCaption: a preview of the uploaded file, not published media
    preview: (url) => <audio src={url} controls preload="none" />,
  },
} satisfies Record<string, UploadKind>;
export type UploadKindName = keyof typeof UPLOAD_KINDS;

export interface UploadInputProps {
  kind: UploadKindName;
  /** The resource the file belongs to: its write permission allows the upload. */
  resource: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
  id?: string;
  disabled?: boolean;
}

const shown = (url: string | null | undefined): url is string =>
  !!url && /^(\/api\/files\/|https?:\/\/)/.test(url);

export function UploadInput({ kind, resource, value, onChange, id, disabled }: UploadInputProps) {
  const spec: UploadKind = UPLOAD_KINDS[kind];
  const { http } = useServices();
  const { message } = App.useApp();
  const picker = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File) => {
    if (file.size > spec.maxBytes) {
      message.error(`文件过大，${spec.what}最大 ${spec.maxBytes / 1024 / 1024} MB`);
      return;
    }
    const body = new FormData();
    body.append('file', file, file.name);
    setUploading(true);
    try {
      const answer = await http.request<SuccessEnvelope<{ url: string }>>(spec.path, {
        method: 'POST',
        query: spec.sendsResource ? { resource } : undefined,
        body,
        // Success and refusals are reported here, next to the field.
        kind: 'silent',
      });
      onChange?.(answer.data.url);
      message.success('上传成功');
    } catch (error) {
      // A refused file's reason is the 422's message for the `file` field (不支持的文件类型 …).
      const reason = isApiError(error) ? (error.fields.file ?? error.message) : null;
      message.error(reason ?? '上传失败，请检查网络后重试');
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
      {shown(value) &&
        (kind === 'image' ? (
          <a href={value} target="_blank" rel="noopener noreferrer" className="wx-image-input-preview">
            {spec.preview(value)}
          </a>
        ) : (
          <div className="wx-upload-input-preview">{spec.preview(value)}</div>
        ))}
      <Space.Compact className="wx-image-input-row">
        <Input
          id={id}
          value={value ?? ''}
          onChange={(event) => onChange?.(event.target.value === '' ? null : event.target.value)}
          placeholder={`上传${spec.what}，或填写${spec.what}地址（https://… 或 /api/files/…）`}
          allowClear
          disabled={disabled}
        />
        <Button
          icon={<UploadOutlined />}
          loading={uploading}
          disabled={disabled}
          onClick={() => picker.current?.click()}
        >
          上传{spec.what}
        </Button>
      </Space.Compact>
      <input
        ref={picker}
        type="file"
        accept={spec.accept}
        // Not `hidden`: antd's form styles give file inputs display: block.
        style={{ display: 'none' }}
        aria-label={`选择要上传的${spec.what}`}
        data-upload-resource={resource}
        onChange={picked}
      />
      <div className="wx-image-input-hint">{spec.hint}</div>
    </div>
  );
}
