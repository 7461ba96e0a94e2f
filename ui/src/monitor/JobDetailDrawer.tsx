/**
 * A job's detail in a drawer, as /job and the admin board open it. Its own lazy chunk (with the
 * drawer, the figures and the history table): a list shows before any of it loads.
 */
import { Drawer } from 'antd';
import type { ReactNode } from 'react';
import type { Job, JobReader } from './api';
import { JobDetail } from './JobDetail';

export default function JobDetailDrawer({
  job,
  reader,
  version,
  extra,
  onClose,
}: {
  job: Job | null;
  reader: JobReader;
  version: number;
  extra?: ReactNode;
  onClose(): void;
}) {
  return (
    <Drawer
      open={job !== null}
      onClose={onClose}
      title={job?.name ?? ''}
      size={860}
      destroyOnHidden
      extra={extra}
    >
      {job && <JobDetail job={job} reader={reader} version={version} />}
    </Drawer>
  );
}
