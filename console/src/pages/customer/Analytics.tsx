export default function Analytics() {
  return <p>Analytics</p>;
}
