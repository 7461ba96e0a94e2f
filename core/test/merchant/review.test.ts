/** The merchant review's rules: masking, the machine's buttons per state, a rejection's reasons. */
import { describe, expect, it } from 'vitest';
import {
  AUDIT_REASON_MAX,
  MERCHANT_JOIN_FIELDS,
  MERCHANT_REVIEW_SECTIONS,
  maskText,
  merchantDisplayField,
  merchantReviewActions,
  validateRejection,
} from '../../src/index';

describe('maskText', () => {
  it.each([
    ['110101199003071234', '110***********1234'],
    ['6222020200112233445', '622************3445'],
    ['12345678', '******78'],
    ['1234', '****'],
    ['', ''],
  ])('%s → %s', (input, masked) => {
    expect(maskText(input)).toBe(masked);
    expect(maskText(input)).toHaveLength(input.length);
  });
});

describe('review page', () => {
  it('shows every field the applicant filled in, in four sections, secrets by their masked copy', () => {
    expect(MERCHANT_REVIEW_SECTIONS.map((s) => s.title)).toEqual([
      '联系人',
      '主体资料',
      '经营资料',
      '结算账户',
    ]);
    expect(MERCHANT_REVIEW_SECTIONS.flatMap((s) => s.fields)).toEqual(MERCHANT_JOIN_FIELDS);
    expect(merchantDisplayField('idNumber')).toBe('idNumberMasked');
    expect(merchantDisplayField('accountNumber')).toBe('accountNumberMasked');
    expect(merchantDisplayField('contactName')).toBe('contactName');
  });

  it.each([
    ['editing', ['submit', 'cancel']],
    ['auditing', ['reject', 'approve', 'cancel']],
    ['rejected', ['submit', 'cancel']],
    ['to_be_confirmed', ['confirm', 'cancel']],
    ['to_be_signed', ['sign', 'cancel']],
    ['signing', ['finish', 'cancel']],
    ['finished', []],
    ['canceled', []],
  ])('in %s the machine offers %j', (status, names) => {
    expect(merchantReviewActions({ status }).map((a) => a.name)).toEqual(names);
  });
});

describe('validateRejection', () => {
  it('accepts reasons per field, trimmed', () => {
    expect(
      validateRejection([
        { field: 'licenseImage', reason: ' 照片模糊 ' },
        { field: 'accountNumber', reason: '账号与开户名称不符' },
      ]),
    ).toEqual({
      ok: true,
      value: [
        { field: 'licenseImage', reason: '照片模糊' },
        { field: 'accountNumber', reason: '账号与开户名称不符' },
      ],
    });
  });

  it.each([
    ['not a list', { field: 'x' }, { auditDetail: '请勾选有问题的字段并写明原因' }],
    ['no field ticked', [], { auditDetail: '请至少勾选一个有问题的字段' }],
    [
      'a ticked field without reason',
      [{ field: 'contactName', reason: '  ' }],
      { contactName: '请填写「联系人姓名」的驳回原因' },
    ],
    ['a missing reason', [{ field: 'bankName' }], { bankName: '请填写「开户银行」的驳回原因' }],
    [
      'a reason too long',
      [{ field: 'shortName', reason: '长'.repeat(AUDIT_REASON_MAX + 1) }],
      { shortName: `「商户简称」的驳回原因最多${AUDIT_REASON_MAX}个字符` },
    ],
    ['an unknown field', [{ field: 'status', reason: '不对' }], { auditDetail: '没有「status」这个字段' }],
    ['no field named', [{ reason: '不对' }], { auditDetail: '驳回原因须注明字段' }],
    [
      'a field twice',
      [
        { field: 'legalPerson', reason: '甲' },
        { field: 'legalPerson', reason: '乙' },
      ],
      { legalPerson: '「法定代表人」重复了' },
    ],
  ])('refuses %s', (_, detail, fields) => {
    expect(validateRejection(detail)).toEqual({ ok: false, fields });
  });

  it('accepts a reason of exactly the limit', () => {
    expect(validateRejection([{ field: 'shortName', reason: '长'.repeat(AUDIT_REASON_MAX) }]).ok).toBe(true);
  });
});
