/**
 * Monitoring (DOMAIN.md "Monitoring"): uptime jobs and their heartbeats, certificate expiry jobs,
 * certificate deployments.
 *
 * The checks behind the actions live in the server: monitorJobs runNow in
 * server/src/domain/monitor-jobs, sslJobs checkNow and sslDeployments deploy in
 * server/src/domain/certificates; the rules they apply are core/src/monitoring.
 */
import { jobTargetProblem } from '../../monitoring/job-target';
import { defineResource } from '../define';
import { f, options } from '../fields';
import { requiredWhen } from '../row-rules';
import { PATTERNS, readOnlyFields, transition } from './common';

export const JOB_STATUS = options(
  ['up', '正常', 'green'],
  ['down', '故障', 'red'],
  ['pending', '待确认', 'orange'],
  ['paused', '已暂停', 'default'],
);

export const monitorJobs = defineResource({
  name: 'monitorJobs',
  title: '监控任务',
  route: 'monitor/job',
  area: 'monitor',
  displayField: 'name',
  softDelete: true,
  indexes: [
    ['ownerId', '-createdAt'],
    ['status', '-lastCheckAt'],
  ],
  fields: {
    name: f.string('任务名称', { required: true, max: 50, searchable: true, sortable: true }),
    ownerId: f.relation('所属用户', 'users', { help: '为空表示平台任务' }),
    kind: f.enum(
      '类型',
      options(
        ['http', 'HTTP(S)', 'blue'],
        ['keyword', '关键词', 'cyan'],
        ['tcp', 'TCP 端口', 'geekblue'],
        ['browser', '浏览器', 'purple'],
      ),
      { required: true, default: 'http' },
    ),
    // A string with a pattern, not f.url: a TCP job's address is tcp://host:port.
    url: f.string('监控地址', {
      required: true,
      max: 2000,
      pattern: '^(https?|tcp)://\\S+$',
      patternMessage: '须以 http://、https:// 或 tcp:// 开头',
      searchable: true,
      help: 'HTTP 类任务填网址；TCP 端口填 tcp://主机:端口',
    }),
    method: f.enum(
      '请求方法',
      options(
        ['GET', 'GET'],
        ['HEAD', 'HEAD'],
        ['POST', 'POST'],
        ['PUT', 'PUT'],
        ['PATCH', 'PATCH'],
        ['DELETE', 'DELETE'],
      ),
      { default: 'GET', filterable: false, hideInList: true },
    ),
    headers: f.json('请求头', {
      shape: 'httpHeaders',
    }),
    body: f.text('请求体', { max: 10_000 }),
    intervalS: f.integer('检查间隔（秒）', { required: true, min: 20, max: 86_400, default: 60 }),
    retryIntervalS: f.integer('重试间隔（秒）', { min: 20, max: 86_400, default: 60, hideInList: true }),
    timeoutMs: f.integer('超时（毫秒）', { min: 500, max: 120_000, default: 10_000, hideInList: true }),
    acceptedStatus: f.string('正常状态码', {
      max: 100,
      default: '200-299',
      pattern: '^[1-5]\\d{2}(-[1-5]\\d{2})?(,[1-5]\\d{2}(-[1-5]\\d{2})?)*$',
      patternMessage: '须为状态码或范围，如 200-299 或 200,301-302',
      hideInList: true,
      help: '如 200-299 或 200,301-302',
    }),
    keyword: f.string('关键词', { max: 200, hideInList: true, help: '类型为“关键词”时，页面须包含此内容' }),
    invertKeyword: f.boolean('反转关键词', { hideInList: true, help: '页面不包含关键词才算正常' }),
    maxRetries: f.integer('重试次数', {
      min: 0,
      max: 10,
      default: 0,
      help: '失败后重试这么多次仍失败才判定故障',
    }),
    followRedirects: f.boolean('跟随跳转', {
      default: true,
      hideInList: true,
      help: '关闭时 3xx 应答本身即结果',
    }),
    ignoreTls: f.boolean('忽略证书错误', {
      hideInList: true,
      help: '自签名或过期证书也视为可访问（证书另有证书监控）',
    }),
    status: f.enum('状态', JOB_STATUS, { readOnly: true, default: 'pending' }),
    retryCount: f.integer('已重试次数', { readOnly: true, hideInList: true, default: 0 }),
    lastCheckAt: f.datetime('最近检查', { readOnly: true, sortable: true }),
    lastLatencyMs: f.integer('响应时间（毫秒）', { readOnly: true, sortable: true }),
    screenshot: f.image('页面截图', { readOnly: true, hideInList: true }),
  },
  rules: [
    (v) => {
      const problem =
        typeof v.kind === 'string' && typeof v.url === 'string' ? jobTargetProblem(v.kind, v.url) : null;
      return problem ? { url: problem } : null;
    },
    requiredWhen((v) => v.kind === 'keyword', 'keyword', '关键词任务须填写关键词'),
  ],
  actions: [
    {
      name: 'runNow',
      label: '立即检查',
      // Checks now and records the run like a scheduled one (server/src/domain/monitor-jobs).
      effect: { kind: 'handler', when: { status: ['up', 'down', 'pending'] } },
    },
    transition('pause', '暂停', ['up', 'down', 'pending'], 'paused'),
    transition('resume', '恢复', ['paused'], 'pending'),
  ],
});

export const monitorRuns = defineResource({
  name: 'monitorRuns',
  title: '检查记录',
  route: 'monitor/job',
  area: 'monitor',
  displayField: 'id',
  readOnly: true,
  defaultSort: '-at',
  indexes: [['jobId', '-at']],
  fields: readOnlyFields({
    jobId: f.relation('监控任务', 'monitorJobs'),
    status: f.enum(
      '结果',
      options(['up', '正常', 'green'], ['down', '故障', 'red'], ['pending', '待确认', 'orange']),
    ),
    httpStatus: f.integer('HTTP 状态码', { filterable: true }),
    latencyMs: f.integer('响应时间（毫秒）', { sortable: true, filterable: true }),
    message: f.string('信息', { max: 500, searchable: true }),
    important: f.boolean('状态变化', { filterable: true, help: '这一次检查使任务状态翻转（会发出告警）' }),
    at: f.datetime('检查时间', { sortable: true, filterable: true }),
  }),
});

export const sslJobs = defineResource({
  name: 'sslJobs',
  title: '证书任务',
  route: 'monitor/ssl',
  area: 'monitor',
  displayField: 'host',
  defaultSort: 'notAfter',
  indexes: [
    ['status', 'notAfter'],
    ['host', 'port'],
  ],
  fields: {
    host: f.string('域名', {
      required: true,
      max: 253,
      pattern: PATTERNS.host,
      patternMessage: '请输入主机名或 IPv4 地址',
      searchable: true,
      sortable: true,
      help: '小写域名或 IP，如 www.example.com',
    }),
    port: f.integer('端口', { required: true, min: 1, max: 65_535, default: 443 }),
    starttls: f.enum(
      'STARTTLS 协议',
      options(['none', '不使用（直接 TLS）'], ['smtp', 'SMTP'], ['imap', 'IMAP'], ['pop3', 'POP3']),
      {
        default: 'none',
        hideInList: true,
        filterable: false,
        help: '邮件服务器先明文连接再升级为 TLS 时选择协议',
      },
    ),
    servername: f.string('SNI 主机名', {
      max: 253,
      pattern: PATTERNS.host,
      patternMessage: '请输入主机名',
      hideInList: true,
      help: '为空时使用域名；按 IP 检测时填写证书上的域名',
    }),
    caBundle: f.text('信任的根证书（PEM）', {
      max: 50_000,
      hideInList: true,
      help: '内部 CA 签发的证书：粘贴其根证书，与系统根证书一同信任',
    }),
    intervalS: f.integer('检测间隔（秒）', { min: 300, max: 604_800, default: 21_600, hideInList: true }),
    ownerId: f.relation('所属用户', 'users', { help: '为空表示平台任务' }),
    notifyDays: f.json('提前提醒（天）', {
      shape: 'notifyDays',
      default: [7, 14, 21],
      help: '到期前这些天各提醒一次，如 [7, 14, 21]',
    }),
    issuer: f.string('颁发者', { readOnly: true, max: 500, searchable: true }),
    subject: f.string('使用者', { readOnly: true, max: 500, hideInList: true }),
    sans: f.stringList('备用名称', { readOnly: true, max: 1000, itemMax: 253 }),
    fingerprint256: f.string('SHA-256 指纹', { readOnly: true, max: 100, hideInList: true }),
    notBefore: f.datetime('生效时间', { readOnly: true, hideInList: true }),
    notAfter: f.datetime('到期时间', { readOnly: true, sortable: true, filterable: true }),
    daysLeft: f.integer('剩余天数', { readOnly: true, sortable: true, filterable: true }),
    keyType: f.string('密钥类型', { readOnly: true, max: 50, hideInList: true }),
    chain: f.json('证书链', { readOnly: true, shape: 'certificateChain' }),
    verdict: f.enum(
      '检测结论',
      options(
        ['ok', '正常', 'green'],
        ['expiring', '即将到期', 'orange'],
        ['expired', '已过期', 'red'],
        ['mismatch', '域名不匹配', 'volcano'],
        ['untrusted', '不受信任', 'volcano'],
        ['unreachable', '无法连接', 'default'],
      ),
      { readOnly: true, hideInList: true },
    ),
    status: f.enum(
      '状态',
      options(
        ['pending', '待检测', 'default'],
        ['ok', '正常', 'green'],
        ['expiring', '即将到期', 'orange'],
        ['expired', '已过期', 'red'],
        ['error', '检测失败', 'volcano'],
      ),
      { readOnly: true, default: 'pending' },
    ),
    lastError: f.string('失败原因', { readOnly: true, max: 500, hideInList: true }),
    lastCheckAt: f.datetime('最近检测', { readOnly: true, sortable: true }),
  },
  // A real TLS handshake now (server/src/domain/certificates), recorded like a scheduled check.
  actions: [{ name: 'checkNow', label: '立即检测', effect: { kind: 'handler' } }],
});

export const sslDeployments = defineResource({
  name: 'sslDeployments',
  title: '证书部署',
  route: 'monitor/ssl/deploy',
  area: 'monitor',
  displayField: 'name',
  fields: {
    name: f.string('名称', { required: true, max: 50, searchable: true }),
    certificate: f.text('证书（PEM）', {
      required: true,
      max: 50_000,
      help: '以 -----BEGIN CERTIFICATE----- 开头，含中间证书',
    }),
    privateKey: f.text('私钥（PEM）', {
      required: true,
      writeOnly: true,
      max: 20_000,
      help: '只写：保存后不再显示',
    }),
    domains: f.stringList('覆盖域名', { required: true, max: 100, itemMax: 253, searchable: true }),
    cdnDomainId: f.relation('部署到', 'cdnDomains', { required: true }),
    status: f.enum(
      '状态',
      options(
        ['pending', '待部署', 'default'],
        ['deploying', '部署中', 'blue'],
        ['deployed', '已部署', 'green'],
        ['failed', '部署失败', 'red'],
      ),
      { readOnly: true, default: 'pending' },
    ),
    message: f.string('结果说明', { readOnly: true, max: 500, hideInList: true }),
    deployedAt: f.datetime('部署时间', { readOnly: true, sortable: true }),
  },
  // Checks the certificate, its key and its names, then points the CDN domain at it
  // (server/src/domain/certificates/deployments.ts).
  actions: [
    { name: 'deploy', label: '部署', confirm: '将证书部署到所选 CDN 域名？', effect: { kind: 'handler' } },
  ],
});

export const ALERT_LEVEL = options(
  ['down', '故障', 'red'],
  ['up', '恢复', 'green'],
  ['expiring', '证书即将到期', 'orange'],
  ['expired', '证书已过期', 'red'],
  ['error', '证书异常', 'volcano'],
);

/** What monitoring raised: a job's status flip, a certificate's threshold or failure. */
export const monitorAlerts = defineResource({
  name: 'monitorAlerts',
  title: '告警记录',
  route: 'monitor/job',
  area: 'monitor',
  displayField: 'message',
  readOnly: true,
  defaultSort: '-at',
  fields: readOnlyFields({
    level: f.enum('级别', ALERT_LEVEL, { filterable: true }),
    jobId: f.relation('监控任务', 'monitorJobs'),
    sslJobId: f.relation('证书任务', 'sslJobs'),
    ownerId: f.relation('所属用户', 'users'),
    message: f.string('内容', { max: 500, searchable: true }),
    at: f.datetime('时间', { sortable: true, filterable: true }),
  }),
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [monitorJobs, monitorRuns, monitorAlerts, sslJobs, sslDeployments];
