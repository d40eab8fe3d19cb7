import type http from 'node:http';
import { Webhook } from 'standardwebhooks';
import { startLoopbackHttpServer, type LoopbackHttpServer, type ReceivedRequest } from './loopback-http-server.js';

/** How the receiver answers the n-th request (0-based): a status, or `hang` to never answer. */
export type ReceiverAnswer = number | 'hang';

export interface FakeWebhookReceiver {
  url: string;
  port: number;
  /** Every request received, in order, body whole. */
  received: ReceivedRequest[];
  /** Checks a received request with the library's own verifier; the parsed payload, or throws. */
  verify(request: ReceivedRequest, secret: string): any;
  /** Requests whose `webhook-id` is `eventId`. */
  deliveriesOf(eventId: string): ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback that records what it is sent and answers as
 * the test scripts it (default 204). Hanging answers are released on close.
 */
export async function startFakeWebhookReceiver(
  answer: (index: number, request: ReceivedRequest) => ReceiverAnswer = () => 204,
  port = 0,
): Promise<FakeWebhookReceiver> {
  const hanging: http.ServerResponse[] = [];
  let count = 0;
  const server: LoopbackHttpServer = await startLoopbackHttpServer(
    (request, response) => {
      const result = answer(count, request);
      count += 1;
      if (result === 'hang') {
        hanging.push(response);
        return;
      }
      response.writeHead(result).end();
    },
    '127.0.0.1',
    port,
  );
  return {
    url: `${server.origin}/hooks/agentd`,
    port: server.port,
    received: server.received,
    verify(request, secret) {
      return new Webhook(secret).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      });
    },
    deliveriesOf(eventId) {
      return server.received.filter((request) => request.headers['webhook-id'] === eventId);
    },
    async close() {
      for (const response of hanging) response.destroy();
      await server.close();
    },
  };
}
