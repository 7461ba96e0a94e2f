/** The admin index: the spec's plain 'admin' heading. */
export default function AdminHome() {
  return <h1 className="wx-admin-home">admin</h1>;
}
