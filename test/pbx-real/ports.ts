import dgram from 'node:dgram';
import net from 'node:net';

/** A TCP port nobody listens on right now (the kernel picks it). */
export function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A port free for both UDP and TCP (SIP listens on both). */
export async function freeSipPort(): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = await freeTcpPort();
    if (await udpFree(port)) return port;
  }
  throw new Error('no port free for both UDP and TCP');
}

function udpFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = dgram.createSocket('udp4');
    s.once('error', () => resolve(false));
    s.bind(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

/** A run of `count` consecutive UDP ports that are free now (Asterisk's RTP range). */
export async function freeUdpRange(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const start = 20000 + 2 * Math.floor(Math.random() * 15000);
    const probes = await Promise.all([0, Math.floor(count / 2), count - 1].map((o) => udpFree(start + o)));
    if (probes.every(Boolean)) return start;
  }
  throw new Error(`no run of ${count} free UDP ports`);
}
