// A load generator run as a second process (so the server's event loop is not shared
// with the client): N concurrent request loops for a fixed time; prints one JSON line.
// Usage: tsx bench/lib/load-client.ts <url> <cookie> <concurrency> <seconds>
const [url, cookie, concurrency = '8', seconds = '10'] = process.argv.slice(2);
if (!url) throw new Error('usage: load-client <url> <cookie> <concurrency> <seconds>');

const latencies: number[] = [];
let errors = 0;
const until = Date.now() + Number(seconds) * 1000;

async function loop() {
  while (Date.now() < until) {
    const t = performance.now();
    try {
      const res = await fetch(url!, { headers: cookie ? { cookie } : {} });
      await res.arrayBuffer();
      if (res.status !== 200) errors++;
      else latencies.push(performance.now() - t);
    } catch {
      errors++;
    }
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, loop));
console.log(JSON.stringify({ latencies, errors, seconds: Number(seconds) }));
