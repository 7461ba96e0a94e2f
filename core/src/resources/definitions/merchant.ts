/**
 * Merchant onboarding (DOMAIN.md "merchants"): applications reviewed through WeChat Pay's states
 * — editing → auditing → rejected (per-field reasons; resubmitting with the same number
 * overwrites) or to_be_confirmed → to_be_signed → signing → finished; canceled.
 */
import { defineResource } from '../define';
import { f, options } from '../fields';
import { PATTERNS, transition } from './common';

export const MERCHANT_STATUS = options(
  ['editing', '编辑中', 'default'],
  ['auditing', '审核中', 'blue'],
  ['rejected', '已驳回', 'red'],
  ['to_be_confirmed', '待账户验证', 'orange'],
  ['to_be_signed', '待签约', 'gold'],
  ['signing', '签约中', 'cyan'],
  ['finished', '已完成', 'green'],
  ['canceled', '已作废', 'default'],
);

export const merchantApplications = defineResource({
  name: 'merchantApplications',
  title: '商户进件',
  route: 'wechat/merchant',
  area: 'merchant',
  displayField: 'number',
  indexes: [['status', '-updatedAt']],
  fields: {
    number: f.string('业务申请编号', {
      required: true,
      createOnly: true,
      unique: true,
      min: 6,
      max: 32,
      pattern: '^[A-Za-z0-9_-]+$',
      patternMessage: '只能包含字母、数字、_ 和 -',
      searchable: true,
      filterable: true,
      help: '同一编号重新提交会覆盖原申请',
    }),
    // Contact (超级管理员)
    contactName: f.string('联系人姓名', { required: true, max: 20, searchable: true }),
    contactMobile: f.phone('联系人手机', {
      required: true,
      pattern: '^1\\d{10}$',
      patternMessage: '请输入 11 位手机号',
      searchable: true,
    }),
    contactEmail: f.email('联系邮箱', { required: true, hideInList: true }),
    // Subject (主体资料)
    subjectType: f.enum(
      '主体类型',
      options(
        ['individual', '个体工商户', 'cyan'],
        ['enterprise', '企业', 'blue'],
        ['institution', '事业单位', 'purple'],
      ),
      { required: true },
    ),
    merchantName: f.string('主体名称', {
      required: true,
      max: 100,
      searchable: true,
      help: '与营业执照一致',
    }),
    licenseNumber: f.string('统一社会信用代码', {
      required: true,
      max: 18,
      pattern: PATTERNS.creditCode,
      patternMessage: '请输入 18 位统一社会信用代码',
      searchable: true,
      hideInList: true,
    }),
    licenseImage: f.image('营业执照照片', { required: true, hideInList: true }),
    legalPerson: f.string('法定代表人', { required: true, max: 20, hideInList: true }),
    idNumber: f.string('法定代表人身份证号', {
      required: true,
      writeOnly: true,
      max: 18,
      pattern: PATTERNS.idNumber,
      patternMessage: '请输入 18 位身份证号',
      help: '只写：保存后只显示脱敏号码',
    }),
    idNumberMasked: f.string('身份证号（脱敏）', { readOnly: true, hideInList: true }),
    // Business (经营资料)
    shortName: f.string('商户简称', {
      required: true,
      max: 20,
      searchable: true,
      help: '在支付完成页向买家展示',
    }),
    servicePhone: f.phone('客服电话', { required: true, hideInList: true }),
    scenes: f.enumList(
      '经营场景',
      options(['store', '线下门店', 'green'], ['miniProgram', '小程序', 'blue'], ['web', '网站', 'purple']),
      { required: true, min: 1, filterable: true },
    ),
    // Settlement (结算银行账户)
    bankAccountType: f.enum(
      '账户类型',
      options(['corporate', '对公账户', 'blue'], ['personal', '个人账户', 'cyan']),
      {
        required: true,
        filterable: false,
        hideInList: true,
      },
    ),
    accountName: f.string('开户名称', { required: true, max: 100, hideInList: true }),
    bankName: f.string('开户银行', { required: true, max: 50, hideInList: true }),
    bankBranch: f.string('开户支行', { max: 100, hideInList: true }),
    accountNumber: f.string('银行账号', {
      required: true,
      writeOnly: true,
      min: 8,
      max: 30,
      pattern: PATTERNS.bankAccount,
      patternMessage: '请输入 8-30 位数字的账号',
      help: '只写：保存后只显示脱敏号码',
    }),
    accountNumberMasked: f.string('银行账号（脱敏）', { readOnly: true, hideInList: true }),
    // Review
    status: f.enum('状态', MERCHANT_STATUS, { readOnly: true, default: 'editing' }),
    auditDetail: f.json('驳回原因', { readOnly: true, shape: 'auditDetail' }),
    submittedAt: f.datetime('提交时间', { readOnly: true, sortable: true }),
    finishedAt: f.datetime('完成时间', { readOnly: true, sortable: true, hideInList: true }),
  },
  actions: [
    transition('submit', '提交审核', ['editing', 'rejected'], 'auditing', {
      set: { submittedAt: 'now', auditDetail: null },
    }),
    {
      name: 'reject',
      label: '驳回',
      danger: true,
      // Stores the per-field reasons in auditDetail and sets status rejected.
      input: { auditDetail: f.json('驳回原因', { required: true, shape: 'auditDetail' }) },
      effect: { kind: 'handler', when: { status: ['auditing'] } },
    },
    transition('approve', '审核通过', ['auditing'], 'to_be_confirmed', { set: { auditDetail: null } }),
    transition('confirm', '账户已验证', ['to_be_confirmed'], 'to_be_signed'),
    transition('sign', '发起签约', ['to_be_signed'], 'signing'),
    transition('finish', '签约完成', ['signing'], 'finished', { set: { finishedAt: 'now' } }),
    transition(
      'cancel',
      '作废',
      ['editing', 'auditing', 'rejected', 'to_be_confirmed', 'to_be_signed', 'signing'],
      'canceled',
      { danger: true, confirm: '作废后这份申请不能再继续，确定作废？' },
    ),
  ],
});

/** The resources of this module in screen order (a shared screen lists them in this order). */
export const resources = [merchantApplications];
