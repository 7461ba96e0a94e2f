/**
 * The public screens' copy of the monitoring definitions' texts (labels.ts) is the definitions':
 * every field the definition has shows its label, help and limits; every option its label.
 */
import { type FieldDef, getResource } from '@wanxiang/core';
import { describe, expect, it } from 'vitest';
import { JOB_FIELDS, JOB_STATUS_OPTIONS, SSL_STATUS_OPTIONS } from './labels';

const defined = getResource('monitorJobs').fields as Record<string, FieldDef | undefined>;
const sslFields = getResource('sslJobs').fields as Record<string, FieldDef | undefined>;
const optionsOf = (field: FieldDef | undefined) =>
  field && 'options' in field ? field.options.map(({ value, label }) => ({ value, label })) : [];
const plain = (options: readonly { value: string; label: string }[]) =>
  options.map(({ value, label }) => ({ value, label }));

describe('monitoring labels on the public screens', () => {
  it('are the monitorJobs definition’s, field by field', () => {
    for (const [name, copy] of Object.entries(JOB_FIELDS)) {
      const field = defined[name];
      // A field issue 16 adds may not be in this checkout's definition yet.
      if (!field) continue;
      expect(copy.label, name).toBe(field.label);
      expect(copy.required ?? false, name).toBe(field.required ?? false);
      if ('max' in field && field.max !== undefined && field.type !== 'string')
        expect(copy).toMatchObject({ max: field.max });
      if ('min' in field && field.min !== undefined) expect(copy).toMatchObject({ min: field.min });
      if (field.type === 'string' && copy.type === 'string' && name !== 'url') {
        expect(copy.max, name).toBe(field.max);
        expect(copy.pattern, name).toBe(field.pattern);
        expect(copy.patternMessage, name).toBe(field.patternMessage);
        expect(copy.help, name).toBe(field.help);
      }
      if (field.type === 'boolean' || field.type === 'integer') expect(copy.help, name).toBe(field.help);
    }
  });

  it('show every option of the definitions with its label', () => {
    const kinds = plain(optionsOf(JOB_FIELDS.kind));
    for (const option of optionsOf(defined.kind)) expect(kinds).toContainEqual(option);
    expect(plain(optionsOf(JOB_FIELDS.method))).toEqual(optionsOf(defined.method));
    const status = defined.status;
    expect(status?.type === 'enum' ? status.options : []).toEqual(JOB_STATUS_OPTIONS);
    expect(plain(SSL_STATUS_OPTIONS)).toEqual(optionsOf(sslFields.status));
  });
});
