/**
 * Cloud CDN (DOMAIN.md "cloud"): accelerated domains and their hourly usage.
 *
 * Usage rows are written only by the access-log import (`POST /api/admin/cdnDomains/{id}/import`,
 * server/src/domain/cdn), one row per domain and hour; the rules are core's (core/src/cdn).
 */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { enableActions, PATTERNS, readOnlyFields } from './common';

export const cdnDomains = defineResource({
  name: 'cdnDomains',
  title: 'CDN 域名',
  route: 'cloud/cdn/domain',
  area: 'cloud',
  displayField: 'domain',
  softDelete: true,
  fields: {
    domain: f.string('加速域名', {
      required: true,
      createOnly: true,
      unique: true,
      max: 253,
      pattern: PATTERNS.domain,
      patternMessage: '请输入有效的域名，如 cdn.example.com 或 *.example.com',
      searchable: true,
      sortable: true,
      help: '小写域名，可用 *. 开头的泛域名；创建后不可修改',
    }),
    origin: f.string('源站', {
      required: true,
      max: 300,
      pattern: '^(https?://)?[a-z0-9.-]+(:\\d{1,5})?$',
      patternMessage: '请输入源站域名或 IP，可带端口，如 origin.example.com:8080',
      help: '域名或 IP，可带协议和端口，如 https://origin.example.com:8443',
    }),
    cname: f.string('CNAME', { readOnly: true, max: 300, help: '在域名解析处把加速域名 CNAME 到这里' }),
    httpsCertId: f.relation('HTTPS 证书', 'sslDeployments'),
    status: f.enum('状态', options(['enabled', '已启用', 'green'], ['disabled', '已停用', 'default']), {
      readOnly: true,
      default: 'enabled',
    }),
    cacheRules: f.json('缓存规则', {
      shape: 'cacheRules',
      default: [],
      help: '如 [{"path": "*.jpg", "ttlS": 86400}]，自上而下匹配',
    }),
  },
  actions: enableActions,
});

export const cdnUsage = defineResource({
  name: 'cdnUsage',
  title: 'CDN 用量',
  route: 'cloud/cdn/usage',
  area: 'cloud',
  displayField: 'hour',
  // Imported from access logs, one row per domain and hour.
  readOnly: true,
  defaultSort: '-hour',
  indexes: [['domainId', '-hour']],
  fields: readOnlyFields({
    domainId: f.relation('域名', 'cdnDomains'),
    hour: f.datetime('时段', { sortable: true, filterable: true }),
    requests: f.integer('请求数', { sortable: true }),
    bytes: f.integer('流量（字节）', { sortable: true }),
    // Null when the imported logs had no cache field: unknown, not 0 (core's hitRatioOf).
    hitRatio: f.number('命中率', { min: 0, max: 1, sortable: true }),
    // hits / misses are kept so a later import of the same hour recomputes the ratio exactly.
    hits: f.integer('命中数', { hideInList: true }),
    misses: f.integer('未命中数', { hideInList: true }),
    status2xx: f.integer('2xx 响应数'),
    status3xx: f.integer('3xx 响应数'),
    status4xx: f.integer('4xx 响应数'),
    status5xx: f.integer('5xx 响应数'),
  }),
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [cdnDomains, cdnUsage];
