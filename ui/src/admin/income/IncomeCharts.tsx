/**
 * The charts of 收入统计 (Apache ECharts through echarts-for-react, its own lazy chunk): money by
 * period (营业额 and 退款 as columns, 净收入 as a line), orders and average ticket by period, and
 * revenue by store. Only the parts of ECharts these use are bundled (echarts/core + two chart
 * types + grid, tooltip, legend, canvas).
 */
import {
  formatMoney,
  GRANULARITY_LABELS,
  type IncomePeriodRow,
  type IncomeReport,
  periodRowLabel,
} from '@wanxiang/core';
import { Card, Col, Row } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';

import { useReducedMotion } from '../../app/reduced-motion';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

/** antd's palette, so the charts sit with the cards. */
const COLORS = {
  revenue: '#1677ff',
  refunds: '#fa8c16',
  net: '#52c41a',
  orders: '#13c2c2',
  ticket: '#722ed1',
};
/** Stores shown in the ranking; the table lists them all. */
const TOP_STORES = 15;

const yuan = (fen: number) => Math.round(fen) / 100;
/** Axis ticks in yuan, short: 12,000 → 1.2万. */
const yuanTick = (value: number) =>
  Math.abs(value) >= 10_000
    ? `${(value / 10_000).toLocaleString('zh-CN', { maximumFractionDigits: 1 })}万`
    : `${value}`;

/** A period on the axis: `01-06` for days and weeks (the week's first day), `2025-01` for months. */
function axisLabel(report: IncomeReport, row: IncomePeriodRow): string {
  return report.granularity === 'month' ? row.period : row.from.slice(5);
}

interface TooltipItem {
  dataIndex: number;
  seriesName: string;
  marker: string;
  value: number | null | undefined;
}

function tooltipValue(value: number | null | undefined, money: boolean): string {
  if (typeof value !== 'number') return '—';
  return money ? formatMoney(value * 100) : value.toLocaleString('zh-CN');
}

function tooltip(report: IncomeReport, money: (name: string) => boolean) {
  return {
    trigger: 'axis',
    formatter: (items: TooltipItem[]) => {
      const row = report.series[items[0]?.dataIndex ?? 0];
      const head = row ? periodRowLabel(report, row) : '';
      const lines = items.map(
        (i) => `${i.marker}${i.seriesName}：${tooltipValue(i.value, money(i.seriesName))}`,
      );
      return [head, ...lines].join('<br/>');
    },
  };
}

const chartStyle = { height: 300, width: '100%' };

export default function IncomeCharts({ report }: { report: IncomeReport }) {
  // Drawn at once when the system asks for less motion (and in the e2e screenshots).
  const animation = !useReducedMotion();
  const unit = GRANULARITY_LABELS[report.granularity];
  const axis = { type: 'category', data: report.series.map((row) => axisLabel(report, row)) };
  const grid = { left: 8, right: 16, top: 40, bottom: 8, containLabel: true };

  const money = {
    animation,
    color: [COLORS.revenue, COLORS.refunds, COLORS.net],
    tooltip: tooltip(report, () => true),
    legend: { top: 0 },
    grid,
    xAxis: axis,
    yAxis: { type: 'value', axisLabel: { formatter: yuanTick }, name: '元', nameGap: 12 },
    series: [
      { name: '营业额', type: 'bar', data: report.series.map((r) => yuan(r.revenueFen)), barMaxWidth: 24 },
      { name: '退款', type: 'bar', data: report.series.map((r) => yuan(r.refundsFen)), barMaxWidth: 24 },
      // Straight segments: a smoothed line overshoots between a quiet period and a busy one.
      { name: '净收入', type: 'line', data: report.series.map((r) => yuan(r.netFen)), symbolSize: 5 },
    ],
  };

  const orders = {
    animation,
    color: [COLORS.orders, COLORS.ticket],
    tooltip: tooltip(report, (name) => name === '客单价'),
    legend: { top: 0 },
    grid,
    xAxis: axis,
    yAxis: [
      { type: 'value', name: '单', nameGap: 12, minInterval: 1 },
      {
        type: 'value',
        name: '元',
        nameGap: 12,
        axisLabel: { formatter: yuanTick },
        splitLine: { show: false },
      },
    ],
    series: [
      { name: '订单数', type: 'bar', data: report.series.map((r) => r.orders), barMaxWidth: 24 },
      {
        name: '客单价',
        type: 'line',
        yAxisIndex: 1,
        // A period without orders has no average ticket: a gap, not a fall to ¥0.
        data: report.series.map((r) => (r.orders > 0 ? yuan(r.avgTicketFen) : null)),
        symbolSize: 5,
      },
    ],
  };

  // Highest first from the top of the chart: ECharts draws a category axis from the bottom.
  const top = report.byStore
    .filter((s) => s.orders > 0 || s.refundsFen > 0)
    .slice(0, TOP_STORES)
    .reverse();
  const stores = {
    animation,
    color: [COLORS.revenue, COLORS.net],
    tooltip: {
      trigger: 'axis',
      axisPointer: { type: 'shadow' },
      valueFormatter: (value: number) => formatMoney(value * 100),
    },
    legend: { top: 0 },
    grid,
    xAxis: { type: 'value', axisLabel: { formatter: yuanTick } },
    yAxis: {
      type: 'category',
      data: top.map((s) => s.storeName),
      axisLabel: { width: 150, overflow: 'truncate' },
    },
    series: [
      { name: '营业额', type: 'bar', data: top.map((s) => yuan(s.revenueFen)), barMaxWidth: 16 },
      { name: '净收入', type: 'bar', data: top.map((s) => yuan(s.netFen)), barMaxWidth: 16 },
    ],
  };
  const storesHeight = Math.max(200, 60 + top.length * 36);

  return (
    <Row gutter={[16, 16]} className="wx-income-charts">
      <Col xs={24} xl={12}>
        <Card size="small" title={`营业额、退款与净收入（按${unit}）`}>
          <ReactEChartsCore
            echarts={echarts}
            option={money}
            notMerge
            style={chartStyle}
            aria-label="营业额、退款与净收入图"
          />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title={`订单数与客单价（按${unit}）`}>
          <ReactEChartsCore
            echarts={echarts}
            option={orders}
            notMerge
            style={chartStyle}
            aria-label="订单数与客单价图"
          />
        </Card>
      </Col>
      {report.storeId === null && (
        <Col xs={24}>
          <Card
            size="small"
            title={report.byStore.length > TOP_STORES ? `门店营业额（前 ${TOP_STORES} 名）` : '门店营业额'}
          >
            {top.length > 0 ? (
              <ReactEChartsCore
                echarts={echarts}
                option={stores}
                notMerge
                style={{ ...chartStyle, height: storesHeight }}
                aria-label="门店营业额图"
              />
            ) : (
              <div className="wx-income-empty">所选期间没有订单</div>
            )}
          </Card>
        </Col>
      )}
    </Row>
  );
}
