import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';

/** Chromium resolves any *.leak.test name to the leak recorder, so a DNS look-up of one shows up as a TCP connection. */
export const LEAK_DOMAIN = 'leak.test';

/** Records every request (and raw TCP connection, and UDP datagram) that reaches it. */
export interface LeakRecorder {
  origin: string;
  requests: string[];
  tcpConnections: number;
  udpPackets: string[];
  close(): Promise<void>;
}

/** Starts a recorder on 127.0.0.1 (HTTP, raw TCP connections and UDP on the same port). */
export async function startLeakRecorder(): Promise<LeakRecorder> {
  const recorder: LeakRecorder = {
    origin: '',
    requests: [],
    tcpConnections: 0,
    udpPackets: [],
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    recorder.requests.push(`${req.method} ${req.url}`);
    const type = req.url?.includes('.js') ? 'text/javascript' : 'text/plain';
    // As permissive as an attacker's server would be: readable by any origin (CORS) and embeddable
    // by cross-origin isolated pages (CORP).
    res.writeHead(200, {
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'Content-Type': type,
    });
    res.end(type === 'text/javascript' ? 'postMessage("leak script ran");' : 'recorded');
  });
  server.on('connection', () => (recorder.tcpConnections += 1));
  server.on('upgrade', (req: IncomingMessage, socket) => {
    recorder.requests.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  recorder.origin = `http://127.0.0.1:${port}`;
  // A STUN server address is host:port over UDP; listen on the same port number for WebRTC attempts.
  const udp: Socket = createSocket('udp4');
  udp.on('message', (message, from) =>
    recorder.udpPackets.push(`${from.address}:${from.port} ${message.length} bytes`),
  );
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, '127.0.0.1', () => resolve());
  });
  recorder.close = async () => {
    udp.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return recorder;
}
