export default function ProviderNumbers({ provider }: { provider: string }) {
  return <p>{provider}</p>;
}
