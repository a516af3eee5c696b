export default function Approvals() {
  return <p>Approvals</p>;
}
