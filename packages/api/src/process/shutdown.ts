// Graceful shutdown of a serving process (the single process, or one cluster
// worker). On the first SIGTERM or SIGINT:
// 1. the listening socket closes (no new connections) and idle keep-alive
//    connections are closed; a request in flight keeps its connection until
//    its answer is written, which then says `Connection: close`;
// 2. in-flight requests have SHUTDOWN_TIMEOUT_SECONDS to finish; after that
//    the connections still open are cut;
// 3. app.close() runs the onClose hooks: the outbound worker stops and gives
//    up its lease, usage still being written is committed, the meter
//    flusher makes its last attempt, the state store and catalogue close;
// 4. the process exits 0 — or 1 when step 3 has not ended within another
//    SHUTDOWN_TIMEOUT_SECONDS (a store or Stripe that hangs), so a
//    shutdown always ends.
// Further signals change nothing (the first one already does everything):
// a supervisor that signals twice, or a process group signalled by both a
// terminal and the cluster primary, gets the same orderly exit.
import type { Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The responses of a server still being written, and a switch that closes each connection after its response. */
export function inFlightResponses(server: Server): { readonly size: number; drain(): void } {
  const open = new Set<ServerResponse>();
  let draining = false;
  // A connection becomes idle only after its response's 'close'; a later tick closes it.
  const closeIdle = () => setImmediate(() => server.closeIdleConnections());
  server.on('request', (_req, res: ServerResponse) => {
    open.add(res);
    res.once('close', () => {
      open.delete(res);
      if (draining) closeIdle();
    });
  });
  return {
    get size() {
      return open.size;
    },
    drain() {
      draining = true;
      for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
      server.closeIdleConnections();
    },
  };
}

export type Exit = (code: number) => void;

/**
 * A signal that arrives while the app is still being built is remembered
 * (instead of killing the process half-started) and handed to
 * closeOnSignals when the app exists: `take()` removes the listeners and
 * returns it.
 */
export function signalsDuringStart(): { take(): NodeJS.Signals | null } {
  let received: NodeJS.Signals | null = null;
  const remember = (signal: NodeJS.Signals) => void (received ??= signal);
  process.on('SIGTERM', remember);
  process.on('SIGINT', remember);
  return {
    take() {
      process.off('SIGTERM', remember);
      process.off('SIGINT', remember);
      return received;
    },
  };
}

/** Close `app` gracefully on the first SIGTERM or SIGINT, then exit (see above); returns the shutdown, for a signal already received. */
export function closeOnSignals(app: FastifyInstance, timeoutMs: number, exit: Exit = (code) => process.exit(code)): (signal: NodeJS.Signals) => Promise<void> {
  const responses = inFlightResponses(app.server);
  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, inFlight: responses.size }, 'shutting down: finishing requests in flight');
    const cut = setTimeout(() => {
      app.log.warn({ inFlight: responses.size }, 'shutdown: requests still in flight after SHUTDOWN_TIMEOUT_SECONDS; closing their connections');
      app.server.closeAllConnections();
    }, timeoutMs);
    const giveUp = setTimeout(
      () => {
        app.log.error('shutdown: usage and meter flush did not end in time; exiting');
        exit(1);
      },
      2 * timeoutMs + 1000,
    );
    cut.unref();
    giveUp.unref();
    responses.drain();
    try {
      await app.close();
    } catch (err) {
      app.log.error({ error: err instanceof Error ? err.message : String(err) }, 'shutdown: close failed');
      exit(1);
      return;
    }
    clearTimeout(cut);
    clearTimeout(giveUp);
    app.log.info('shut down');
    exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return shutdown;
}
