/** The range's totals as cards: 营业额, 订单数, 退款, 净收入, 客单价. */
import { formatMoney, INCOME_COLUMNS, type IncomeReport } from '@wanxiang/core';
import { Card, Col, Row, Statistic } from 'antd';

const HINTS: Record<string, string> = {
  revenueFen: '期间内支付的订单实付之和',
  orders: '期间内支付的订单',
  refundsFen: '期间内退款成功的金额',
  netFen: '营业额 − 退款',
  avgTicketFen: '营业额 ÷ 订单数',
};

export function IncomeSummary({ report }: { report: IncomeReport }) {
  return (
    <Row gutter={[16, 16]} className="wx-income-summary">
      {INCOME_COLUMNS.map((column) => {
        const value = report.totals[column.key];
        return (
          <Col key={column.key} xs={12} md={8} xl={{ flex: '20%' }}>
            <Card size="small" className="wx-income-stat">
              <Statistic
                title={column.label}
                value={column.money ? formatMoney(value) : value.toLocaleString('zh-CN')}
                styles={column.key === 'netFen' && value < 0 ? { content: { color: '#cf1322' } } : undefined}
              />
              <div className="wx-income-stat-hint">{HINTS[column.key]}</div>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
