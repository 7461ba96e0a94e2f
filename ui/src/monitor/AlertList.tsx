/** Alerts newest first (a job went down or came back, a certificate nears expiry …). */
import { List, Tag } from 'antd';
import type { Alert, AlertLevel } from './api';
import { timeText } from './format';

/** The monitorAlerts definition's levels (core's ALERT_LEVEL once the runner's definitions land). */
export const ALERT_LEVELS: Record<AlertLevel, { label: string; color: string }> = {
  down: { label: '故障', color: 'red' },
  up: { label: '恢复', color: 'green' },
  expiring: { label: '证书即将到期', color: 'orange' },
  expired: { label: '证书已过期', color: 'red' },
  error: { label: '证书异常', color: 'volcano' },
};

export function AlertList({ alerts, loading }: { alerts: readonly Alert[]; loading?: boolean }) {
  return (
    <List<Alert>
      size="small"
      loading={loading}
      dataSource={[...alerts]}
      locale={{ emptyText: '暂无告警' }}
      aria-label="告警"
      renderItem={(alert) => {
        const level = ALERT_LEVELS[alert.level] ?? { label: alert.level, color: 'default' };
        return (
          <List.Item key={alert.id} data-testid="alert-item">
            <List.Item.Meta
              title={
                <span>
                  <Tag color={level.color}>{level.label}</Tag>
                  {alert.message}
                </span>
              }
              description={timeText(alert.at)}
            />
          </List.Item>
        );
      }}
    />
  );
}
