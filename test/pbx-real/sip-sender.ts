import crypto from 'node:crypto';
import dgram from 'node:dgram';

// Out-of-dialog SIP requests from one loopback address, as a scanner (or a carrier's OPTIONS
// ping) sends them, and which of them got any answer: answers are matched by Call-ID. Used to
// flood Asterisk with INVITE/REGISTER and to tell an address that is answered from one that is not.

export type Method = 'INVITE' | 'REGISTER' | 'OPTIONS';

export class SipSender {
  /** Call-ID → the status codes of every response to it (retransmissions included). */
  readonly answers = new Map<string, number[]>();
  /** Call-ID → the WWW-Authenticate header of its 401, if any. */
  readonly challenges = new Map<string, string>();
  private constructor(
    private readonly socket: dgram.Socket,
    readonly address: string,
    private readonly target: { host: string; port: number },
  ) {
    socket.on('message', (msg) => {
      const text = msg.toString('latin1');
      const status = /^SIP\/2\.0 (\d{3})/.exec(text);
      const callId = /^Call-ID:\s*(\S+)/im.exec(text);
      if (!status || !callId) return;
      const list = this.answers.get(callId[1]!) ?? [];
      list.push(Number(status[1]));
      this.answers.set(callId[1]!, list);
      const challenge = /^WWW-Authenticate:\s*(.+?)\r?$/im.exec(text);
      if (challenge) this.challenges.set(callId[1]!, challenge[1]!);
    });
  }

  static async open(address: string, target: { host: string; port: number }): Promise<SipSender> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, address, () => resolve());
    });
    return new SipSender(socket, address, target);
  }

  /**
   * Sends one request; returns its Call-ID. `user`: the Request-URI's and From's user (a DID,
   * an extension); `authorization`: an Authorization header's value, as a guesser sends it.
   */
  send(method: Method, callId: string, user = '100', authorization?: string): Promise<string> {
    const { port } = this.socket.address();
    const me = `${this.address}:${port}`;
    const there = `${this.target.host}:${this.target.port}`;
    const uri = method === 'REGISTER' ? `sip:${there}` : `sip:${user}@${there}`;
    const msg = [
      `${method} ${uri} SIP/2.0`,
      `Via: SIP/2.0/UDP ${me};branch=z9hG4bK${crypto.randomBytes(8).toString('hex')};rport`,
      `From: <sip:${user}@${this.target.host}>;tag=${crypto.randomBytes(4).toString('hex')}`,
      `To: <sip:${user}@${this.target.host}>`,
      `Call-ID: ${callId}`,
      `CSeq: 1 ${method}`,
      `Contact: <sip:${user}@${me}>`,
      'Max-Forwards: 70',
      'User-Agent: friendly-scanner',
      ...(authorization ? [`Authorization: ${authorization}`] : []),
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    return new Promise((resolve, reject) => this.socket.send(msg, this.target.port, this.target.host, (err) => (err ? reject(err) : resolve(callId))));
  }

  answered(callId: string): boolean {
    return this.answers.has(callId);
  }

  close(): void {
    this.socket.close();
  }
}
