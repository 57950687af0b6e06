/**
 * A TCP relay before the emulator, as the gateway's platform host, that a test switches between
 * the platform being there and the ways it can be gone while the gateway's configuration stays
 * the same: `up` passes each connection on to the emulator, `refuse` listens nowhere (connection
 * refused, the same port kept for `up` again), `silence` accepts connections and never answers.
 * Every switch drops the connections open until then, so a kept-alive socket from before cannot
 * carry a call past it.
 */
import net, { type AddressInfo } from 'node:net';

export interface PlatformRelay {
  /** http://127.0.0.1:<port>, the relay's own origin. */
  base: string;
  up(): Promise<void>;
  refuse(): Promise<void>;
  silence(): Promise<void>;
  close(): Promise<void>;
}

export async function startPlatformRelay(targetBase: string): Promise<PlatformRelay> {
  const target = new URL(targetBase);
  let mode: 'up' | 'silent' = 'up';
  const open = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    if (mode === 'silent') {
      socket.resume(); // read the request, answer nothing
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    open.add(upstream);
    upstream.on('close', () => {
      open.delete(upstream);
      socket.destroy();
    });
    upstream.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
    socket.pipe(upstream).pipe(socket);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const dropAll = () => {
    for (const s of open) s.destroy();
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      dropAll();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const listening = async () => {
    if (!server.listening) await listen(port);
  };
  return {
    base: `http://127.0.0.1:${port}`,
    async up() {
      mode = 'up';
      dropAll();
      await listening();
    },
    refuse: stop,
    async silence() {
      mode = 'silent';
      dropAll();
      await listening();
    },
    close: stop,
  };
}
