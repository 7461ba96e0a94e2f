/**
 * The figures as a table, by period or by store, with a 合计 line: the same columns and labels as
 * the CSV export (core's INCOME_COLUMNS, periodRowLabel).
 */
import {
  formatMoney,
  INCOME_COLUMNS,
  type IncomeFigures,
  type IncomeReport,
  type IncomeTableView,
  periodRowLabel,
  TOTAL_LABEL,
} from '@wanxiang/core';
import { Table, type TableColumnsType } from 'antd';

interface Line extends IncomeFigures {
  key: string;
  label: string;
}

function linesOf(report: IncomeReport, view: IncomeTableView): Line[] {
  return view === 'period'
    ? report.series.map((row) => ({ ...row, key: row.period, label: periodRowLabel(report, row) }))
    : report.byStore.map((row) => ({ ...row, key: String(row.storeId), label: row.storeName }));
}

const cell = (money: boolean, value: number) => (money ? formatMoney(value) : value.toLocaleString('zh-CN'));

export function IncomeTable({
  report,
  view,
  loading,
}: {
  report: IncomeReport;
  view: IncomeTableView;
  loading: boolean;
}) {
  const columns: TableColumnsType<Line> = [
    { key: 'label', dataIndex: 'label', title: view === 'period' ? '期间' : '门店', fixed: 'left' },
    ...INCOME_COLUMNS.map((c) => ({
      key: c.key,
      dataIndex: c.key,
      title: c.label,
      align: 'right' as const,
      sorter: (a: Line, b: Line) => a[c.key] - b[c.key],
      render: (value: number) => (
        <span className={c.key === 'netFen' && value < 0 ? 'wx-income-negative' : undefined}>
          {cell(c.money, value)}
        </span>
      ),
    })),
  ];
  return (
    <Table<Line>
      className="wx-income-table"
      size="small"
      columns={columns}
      dataSource={linesOf(report, view)}
      loading={loading}
      pagination={false}
      scroll={{ x: 'max-content', y: 480 }}
      summary={() => (
        <Table.Summary fixed="bottom">
          <Table.Summary.Row className="wx-income-total">
            <Table.Summary.Cell index={0}>{TOTAL_LABEL}</Table.Summary.Cell>
            {INCOME_COLUMNS.map((c, i) => (
              <Table.Summary.Cell key={c.key} index={i + 1} align="right">
                {cell(c.money, report.totals[c.key])}
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}
