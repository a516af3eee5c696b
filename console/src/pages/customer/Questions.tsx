export default function Questions() {
  return <p>Questions</p>;
}
