import { Empty } from 'antd';

/** An admin screen's frame: its Chinese title; the table arrives with its own issue. */
export default function AdminScreen({ title }: { title: string }) {
  return (
    <section className="wx-admin-panel">
      <h2 className="wx-admin-panel-title">{title}</h2>
      <Empty />
    </section>
  );
}
