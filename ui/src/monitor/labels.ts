/**
 * What the public monitoring screens show of core's monitoring definitions (core/src/resources/
 * definitions/monitoring.ts): the job form's fields, the job and certificate statuses. The
 * definitions module is a chunk of its own (the back office loads it on demand, resources/
 * definitions.ts), so /job and /ssl take it as it is.
 */
import { type EnumOption, type FieldDef, monitorJobs, sslJobs } from '@wanxiang/core';

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

export const JOB_FIELDS: Readonly<Record<JobFieldName, FieldDef>> = monitorJobs.fields as Record<
  JobFieldName,
  FieldDef
>;

const optionsOf = (field: FieldDef | undefined): readonly EnumOption[] =>
  field?.type === 'enum' ? field.options : [];

/** monitorJobs.status. */
export const JOB_STATUS_OPTIONS = optionsOf(monitorJobs.fields.status);

/** sslJobs.status. */
export const SSL_STATUS_OPTIONS = optionsOf(sslJobs.fields.status);
