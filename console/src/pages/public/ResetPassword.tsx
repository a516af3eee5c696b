export default function ResetPassword() {
  return <p>ResetPassword</p>;
}
