/**
 * A job's response times over the chosen range (average and P95 per hour or day) with the failed
 * checks as columns — Apache ECharts through echarts-for-react, its own lazy chunk (as 收入统计's
 * charts): only the parts used are bundled.
 */
import { Empty } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useReducedMotion } from '../app/reduced-motion';
import type { Stats } from './api';
import { shortTimeText } from './format';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export default function LatencyChart({ stats }: { stats: Stats }) {
  // Drawn at once when the system asks for less motion (and in the e2e screenshots).
  const animation = !useReducedMotion();
  if (stats.points.length === 0) return <Empty description="这段时间还没有检查记录" />;
  const daily = stats.range === '30d';
  const option = {
    animation,
    color: ['#1677ff', '#722ed1', '#ff4d4f'],
    tooltip: { trigger: 'axis' },
    legend: { data: ['平均响应', 'P95', '故障次数'], top: 0 },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: stats.points.map((p) => (daily ? shortTimeText(p.at).slice(0, 5) : shortTimeText(p.at))),
    },
    yAxis: [
      { type: 'value', name: '毫秒', minInterval: 1 },
      { type: 'value', name: '次', minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      {
        name: '平均响应',
        type: 'line',
        smooth: true,
        showSymbol: false,
        data: stats.points.map((p) => p.avgMs),
      },
      { name: 'P95', type: 'line', smooth: true, showSymbol: false, data: stats.points.map((p) => p.p95Ms) },
      { name: '故障次数', type: 'bar', yAxisIndex: 1, barMaxWidth: 8, data: stats.points.map((p) => p.down) },
    ],
  };
  return (
    <div data-testid="latency-chart">
      <ReactEChartsCore echarts={echarts} option={option} notMerge style={{ height: 260, width: '100%' }} />
    </div>
  );
}
