import assert from 'node:assert/strict';
import net, { type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sendRaw, type RawResponse } from '../helpers/raw-http.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Requests that Node's HTTP parser rejects never reach a route, so they need a
 * listening server (app.inject skips the parser). Found by the HTTP fuzzer:
 * they were answered with Fastify's own JSON instead of problem+json.
 */
describe('requests the HTTP parser rejects', () => {
  let testApp: TestApp;
  let port: number;

  before(async () => {
    testApp = await createTestApp();
    await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    port = (testApp.app.server.address() as AddressInfo).port;
  });
  after(() => testApp.close());

  async function send(head: string, body = ''): Promise<RawResponse> {
    const outcome = await sendRaw(port, Buffer.from(`${head}\r\nConnection: close\r\n\r\n${body}`, 'latin1'), 5_000);
    assert.equal(outcome.kind, 'response', outcome.kind === 'no-response' ? outcome.reason : '');
    return (outcome as { response: RawResponse }).response;
  }

  function assertProblem(response: RawResponse, status: number, code: string) {
    assert.equal(response.status, status);
    assert.match(response.headers['content-type'] ?? '', /^application\/problem\+json/);
    const problem = JSON.parse(response.body.toString('utf8'));
    assert.equal(problem.status, status);
    assert.equal(problem.code, code);
    assert.match(problem.requestId, /^req_/);
    assert.equal(response.headers['x-request-id'], problem.requestId);
  }

  it('answers headers over the size limit with a payload_too_large problem', async () => {
    const response = await send(`GET /v1/agents HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(20_000)}`);
    assertProblem(response, 413, 'payload_too_large');
  });

  it('answers a malformed request line with a validation_failed problem', async () => {
    assertProblem(await send('get /v1/agents HTTP/1.1\r\nHost: x'), 400, 'validation_failed');
  });

  it('answers conflicting body framing with a validation_failed problem', async () => {
    const response = await send(
      'POST /v1/agents HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Transfer-Encoding: chunked\r\nContent-Length: 4',
      '2\r\n{}\r\n0\r\n\r\n',
    );
    assertProblem(response, 400, 'validation_failed');
  });

  it('serves a request with an expectation it does not know instead of a bare 417', async () => {
    const response = await send('GET /v1/agents/agt_missing HTTP/1.1\r\nHost: x\r\nExpect: something-else');
    assertProblem(response, 401, 'unauthorized');
  });

  it('answers a malformed request whose body is still being sent, without the answer being lost to a reset', async () => {
    // The client sends the whole body before it reads anything (a client busy uploading): a server that
    // closed at once, with the body unread, made the kernel reset the connection and drop the answer.
    const bodyBytes = 4 * 1_048_576;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    socket.pause();
    const writeError = new Promise<Error | null>((resolve) => {
      socket.once('error', resolve);
      socket.write(
        Buffer.from(
          `POST /v1/agents HTTP/1.1\r\nHost: x\r\nX-Odd: a\u0007b\r\nContent-Type: application/json\r\n` +
            `Content-Length: ${bodyBytes}\r\n\r\n`,
          'latin1',
        ),
      );
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let written = 0;
      const writeMore = () => {
        while (written < bodyBytes) {
          written += chunk.length;
          if (!socket.write(chunk)) return void socket.once('drain', writeMore);
        }
        resolve(null);
      };
      writeMore();
    });
    assert.equal(await writeError, null, 'the whole body was taken');
    const received: Buffer[] = [];
    socket.on('data', (data: Buffer) => received.push(data));
    socket.resume();
    socket.end();
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const answer = Buffer.concat(received).toString('latin1');
    assert.match(answer, /^HTTP\/1\.1 400 /);
    assert.match(answer, /application\/problem\+json/);
    assert.match(answer, /"code":"validation_failed"/);
  });

  it('keeps serving afterwards', async () => {
    const response = await send('GET /healthz HTTP/1.1\r\nHost: x');
    assert.equal(response.status, 200);
  });
});
