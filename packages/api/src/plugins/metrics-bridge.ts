// /metrics with the admin key in cluster mode: the worker that receives the
// request asks the primary over the cluster IPC channel for the sum of every
// worker's registry (prom-client's AggregatorRegistry, which only the
// primary can run) and serves that, so the figures do not depend on which
// worker the balancer picked. Both sides of the exchange are here.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';

const REQUEST = 'jpsp:metrics-request';
const REPLY = 'jpsp:metrics-reply';

export interface MetricsText {
  contentType: string;
  body: string;
}

interface Reply {
  type: typeof REPLY;
  id: string;
  text?: MetricsText;
  failed?: true;
}

/** Worker side: the cluster's summed metrics from the primary (rejects after `timeoutMs`). */
export function metricsFromPrimary(timeoutMs = 10_000): Promise<MetricsText> {
  const send = process.send?.bind(process);
  if (!send) return Promise.reject(new Error('not a cluster worker'));
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      process.off('message', onMessage);
    };
    const onMessage = (message: Reply) => {
      if (message?.type !== REPLY || message.id !== id) return;
      done();
      if (message.text) resolve(message.text);
      else reject(new Error('the primary could not collect the metrics'));
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error('no metrics from the primary in time'));
    }, timeoutMs);
    process.on('message', onMessage);
    send({ type: REQUEST, id });
  });
}

/** Primary side: answer every worker's request with `collect()`. */
export function answerMetricsRequests(collect: () => Promise<MetricsText>): void {
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== REQUEST || typeof message.id !== 'string') return;
    const id = message.id;
    const reply = (r: Omit<Reply, 'type' | 'id'>) => {
      if (worker.isConnected()) worker.send({ type: REPLY, id, ...r });
    };
    collect().then(
      (text) => reply({ text }),
      () => reply({ failed: true }),
    );
  });
}
