export default function AdminDashboard() {
  return <p>AdminDashboard</p>;
}
