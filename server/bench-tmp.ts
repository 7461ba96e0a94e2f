import Database from 'better-sqlite3';
const db = new Database('/work/benchdata/wanxiang.db', { readonly: true });
db.pragma('mmap_size = 1073741824');
const q1 = `select json_group_array(json_array(id, updated_at, created_at, store_id, user_id, runner_id)) from (select id, updated_at, created_at, store_id, user_id, runner_id from orders where status = ? order by created_at desc, id desc limit 20)`;
const q2 = `select id, updated_at, created_at, store_id, user_id, runner_id from orders where status = ? order by created_at desc, id desc limit 20`;
const q3 = `select id from orders where status = ? order by created_at desc, id desc limit 20`;
for (const [name, q, raw] of [['json', q1, true], ['rows', q2, true], ['ids', q3, true], ['json', q1, true], ['rows', q2, true]] as const) {
  const st = db.prepare(q); st.raw(raw);
  console.log(db.prepare('explain query plan ' + q).all('paid').map((r: any) => r.detail).join(' | '));
  const t0 = performance.now(); let n = 0;
  for (let i = 0; i < 20000; i++) { const r = st.all('paid'); if (name === 'json') n += JSON.parse((r[0] as any)[0]).length; else n += r.length; }
  console.log(name, ((performance.now() - t0) * 1000 / 20000).toFixed(1), 'µs', n);
}
