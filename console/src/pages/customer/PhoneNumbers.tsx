export default function PhoneNumbers() {
  return <p>PhoneNumbers</p>;
}
