/**
 * The labels, help texts, limits and options of core's monitoring definitions (core/src/resources/
 * definitions/monitoring.ts) that the public screens show: the job form's fields, the job and
 * certificate statuses. A copy, on purpose: importing the definitions module from public code makes
 * Vite put it in a chunk of its own that every admin list then loads (+0.8 KB gzip, over the first
 * list's 400 KB bar — README.md "Bundle"). labels.test.tsx holds the copy to the definitions: a label
 * changed there fails the test until it is changed here.
 */
import type { EnumOption, FieldDef } from '@wanxiang/core';

export type JobFieldName =
  | 'name'
  | 'kind'
  | 'url'
  | 'method'
  | 'headers'
  | 'body'
  | 'intervalS'
  | 'retryIntervalS'
  | 'timeoutMs'
  | 'acceptedStatus'
  | 'keyword'
  | 'invertKeyword'
  | 'maxRetries'
  | 'followRedirects'
  | 'ignoreTls';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ value: m, label: m }));

export const JOB_FIELDS: Readonly<Record<JobFieldName, FieldDef>> = {
  name: { type: 'string', label: '任务名称', required: true, max: 50 },
  kind: {
    type: 'enum',
    label: '类型',
    required: true,
    default: 'http',
    options: [
      { value: 'http', label: 'HTTP(S)', color: 'blue' },
      { value: 'keyword', label: '关键词', color: 'cyan' },
      { value: 'tcp', label: 'TCP 端口', color: 'geekblue' },
      { value: 'browser', label: '浏览器', color: 'purple' },
    ],
  },
  url: {
    type: 'string',
    label: '监控地址',
    required: true,
    max: 2000,
    help: 'HTTP 类任务填网址；TCP 端口填 tcp://主机:端口',
  },
  method: { type: 'enum', label: '请求方法', default: 'GET', options: METHODS },
  headers: { type: 'json', label: '请求头' },
  body: { type: 'text', label: '请求体', max: 10_000 },
  intervalS: { type: 'integer', label: '检查间隔（秒）', required: true, min: 20, max: 86_400, default: 60 },
  retryIntervalS: { type: 'integer', label: '重试间隔（秒）', min: 20, max: 86_400, default: 60 },
  timeoutMs: { type: 'integer', label: '超时（毫秒）', min: 500, max: 120_000, default: 10_000 },
  acceptedStatus: {
    type: 'string',
    label: '正常状态码',
    max: 100,
    default: '200-299',
    pattern: '^[1-5]\\d{2}(-[1-5]\\d{2})?(,[1-5]\\d{2}(-[1-5]\\d{2})?)*$',
    patternMessage: '须为状态码或范围，如 200-299 或 200,301-302',
    help: '如 200-299 或 200,301-302',
  },
  keyword: { type: 'string', label: '关键词', max: 200, help: '类型为“关键词”时，页面须包含此内容' },
  invertKeyword: { type: 'boolean', label: '反转关键词', help: '页面不包含关键词才算正常' },
  maxRetries: {
    type: 'integer',
    label: '重试次数',
    min: 0,
    max: 10,
    default: 0,
    help: '失败后重试这么多次仍失败才判定故障',
  },
  followRedirects: { type: 'boolean', label: '跟随跳转', default: true, help: '关闭时 3xx 应答本身即结果' },
  ignoreTls: {
    type: 'boolean',
    label: '忽略证书错误',
    default: false,
    help: '自签名或过期证书也视为可访问（证书另有证书监控）',
  },
};

/** monitorJobs.status (core's JOB_STATUS). */
export const JOB_STATUS_OPTIONS: readonly EnumOption[] = [
  { value: 'up', label: '正常', color: 'green' },
  { value: 'down', label: '故障', color: 'red' },
  { value: 'pending', label: '待确认', color: 'orange' },
  { value: 'paused', label: '已暂停', color: 'default' },
];

/** sslJobs.status. */
export const SSL_STATUS_OPTIONS: readonly EnumOption[] = [
  { value: 'pending', label: '待检测', color: 'default' },
  { value: 'ok', label: '正常', color: 'green' },
  { value: 'expiring', label: '即将到期', color: 'orange' },
  { value: 'expired', label: '已过期', color: 'red' },
  { value: 'error', label: '检测失败', color: 'volcano' },
];
