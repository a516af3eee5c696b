export default function Usage() {
  return <p>Usage</p>;
}
