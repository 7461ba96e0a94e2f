/**
 * The charts of CDN 用量 (ECharts, its own lazy chunk as 收入统计's): requests per hour, traffic
 * in the unit the largest hour reads best in (core's bytesUnitFor), hit ratio in percent with
 * gaps where it is unknown (no cache field in the logs) rather than a fall to 0.
 */
import { bytesUnitFor, chinaHourLabel, formatBytes, formatHitRatio } from '@wanxiang/core';
import { Card, Col, Row } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useReducedMotion } from '../../app/reduced-motion';
import type { HourFigures } from './cdn-api';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, CanvasRenderer]);

const chartStyle = { height: 260, width: '100%' };
const grid = { left: 8, right: 16, top: 32, bottom: 8, containLabel: true };

export default function CdnCharts({ hours }: { hours: HourFigures[] }) {
  // Drawn at once when the system asks for less motion (and in the e2e screenshots).
  const animation = !useReducedMotion();
  const labels = hours.map((h) => chinaHourLabel(Date.parse(h.hour)));
  // Short ticks: `01-02 10:00` (the year is in the tooltip).
  const axis = { type: 'category', data: labels, axisLabel: { formatter: (v: string) => v.slice(5) } };
  const { unit, divisor } = bytesUnitFor(Math.max(0, ...hours.map((h) => h.bytes)));

  const requests = {
    animation,
    color: ['#1677ff'],
    tooltip: { trigger: 'axis', valueFormatter: (v: number) => v.toLocaleString('zh-CN') },
    grid,
    xAxis: axis,
    yAxis: { type: 'value', name: '次', minInterval: 1 },
    series: [{ name: '请求数', type: 'bar', data: hours.map((h) => h.requests), barMaxWidth: 16 }],
  };
  const traffic = {
    animation,
    color: ['#13c2c2'],
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number; marker: string }[]) => {
        const i = items[0]?.dataIndex ?? 0;
        return `${labels[i]}<br/>${items[0]?.marker ?? ''}流量：${formatBytes(hours[i]?.bytes)}`;
      },
    },
    grid,
    xAxis: axis,
    yAxis: { type: 'value', name: unit },
    series: [
      {
        name: '流量',
        type: 'line',
        areaStyle: { opacity: 0.15 },
        symbolSize: 4,
        data: hours.map((h) => Number((h.bytes / divisor).toFixed(2))),
      },
    ],
  };
  const ratio = {
    animation,
    color: ['#52c41a'],
    tooltip: {
      trigger: 'axis',
      formatter: (items: { dataIndex: number; marker: string }[]) => {
        const i = items[0]?.dataIndex ?? 0;
        return `${labels[i]}<br/>${items[0]?.marker ?? ''}命中率：${formatHitRatio(hours[i]?.hitRatio)}`;
      },
    },
    grid,
    xAxis: axis,
    yAxis: { type: 'value', name: '%', min: 0, max: 100 },
    series: [
      {
        name: '命中率',
        type: 'line',
        symbolSize: 4,
        data: hours.map((h) => (h.hitRatio === null ? null : Number((h.hitRatio * 100).toFixed(1)))),
      },
    ],
  };

  return (
    <Row gutter={[16, 16]} className="wx-cdn-charts">
      <Col xs={24} xl={12}>
        <Card size="small" title="请求数（每小时）">
          <ReactEChartsCore
            echarts={echarts}
            option={requests}
            notMerge
            style={chartStyle}
            aria-label="请求数图"
          />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card size="small" title={`流量（每小时，${unit}）`}>
          <ReactEChartsCore
            echarts={echarts}
            option={traffic}
            notMerge
            style={chartStyle}
            aria-label="流量图"
          />
        </Card>
      </Col>
      <Col xs={24}>
        <Card size="small" title="缓存命中率（每小时）">
          <ReactEChartsCore
            echarts={echarts}
            option={ratio}
            notMerge
            style={chartStyle}
            aria-label="命中率图"
          />
        </Card>
      </Col>
    </Row>
  );
}
