export default function CallLogs() {
  return <p>CallLogs</p>;
}
