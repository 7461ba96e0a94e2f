/**
 * One API's (or key's) last days: calls per day stacked by outcome (成功 / 出错 / 超出限流 /
 * 额度不足) and the average and maximum latency — Apache ECharts, its own lazy chunk as the
 * monitoring and income charts are; only the parts used are bundled. SVG rather than canvas: 30
 * points need no canvas, and the charts then render (and are tested) where there is none (jsdom).
 */
import { Empty } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { ApiDay } from './stats';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

const dayLabel = (day: string) => day.slice(5); // MM-DD

export default function ApiStatsCharts({ days }: { days: readonly ApiDay[] }) {
  if (days.every((d) => d.calls === 0)) return <Empty description="这段时间还没有调用" />;
  const x = days.map((d) => dayLabel(d.day));
  // No grow-in animation: the figures are history, and a still chart is one a screenshot can check.
  const calls = {
    animation: false,
    color: ['#52c41a', '#ff4d4f', '#fa8c16', '#eb2f96'],
    tooltip: { trigger: 'axis' },
    legend: { data: ['成功', '出错', '超出限流', '额度不足'], top: 0 },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: x },
    yAxis: { type: 'value', name: '次', minInterval: 1 },
    series: [
      { name: '成功', type: 'bar', stack: 'calls', barMaxWidth: 16, data: days.map((d) => d.ok) },
      { name: '出错', type: 'bar', stack: 'calls', data: days.map((d) => d.errors) },
      { name: '超出限流', type: 'bar', stack: 'calls', data: days.map((d) => d.rateLimited) },
      { name: '额度不足', type: 'bar', stack: 'calls', data: days.map((d) => d.noQuota) },
    ],
  };
  const latency = {
    animation: false,
    color: ['#1677ff', '#722ed1'],
    tooltip: { trigger: 'axis' },
    legend: { data: ['平均耗时', '最大耗时'], top: 0 },
    grid: { left: 8, right: 8, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: x },
    yAxis: { type: 'value', name: '毫秒', minInterval: 1 },
    series: [
      {
        name: '平均耗时',
        type: 'line',
        smooth: true,
        connectNulls: true,
        data: days.map((d) => d.latencyAvgMs),
      },
      {
        name: '最大耗时',
        type: 'line',
        smooth: true,
        connectNulls: true,
        data: days.map((d) => d.latencyMaxMs),
      },
    ],
  };
  return (
    <div className="wx-api-charts">
      <div data-testid="api-calls-chart">
        <h4>每日调用（按结果）</h4>
        <ReactEChartsCore echarts={echarts} option={calls} notMerge style={{ height: 240, width: '100%' }} />
      </div>
      <div data-testid="api-latency-chart">
        <h4>每日耗时</h4>
        <ReactEChartsCore
          echarts={echarts}
          option={latency}
          notMerge
          style={{ height: 240, width: '100%' }}
        />
      </div>
    </div>
  );
}
