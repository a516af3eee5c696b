export default function Settings() {
  return <p>Settings</p>;
}
