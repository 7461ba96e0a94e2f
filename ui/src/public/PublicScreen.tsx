import { Empty } from 'antd';

/** A public screen's frame: its Chinese title; the content arrives with its own issue. */
export default function PublicScreen({ title }: { title: string }) {
  return (
    <section className="wx-public-screen">
      <h1 className="wx-public-screen-title">{title}</h1>
      <div className="wx-public-panel">
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      </div>
    </section>
  );
}
