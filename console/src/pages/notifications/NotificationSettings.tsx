export default function NotificationSettings() {
  return <p>NotificationSettings</p>;
}
