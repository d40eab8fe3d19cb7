import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Started } from '../message-overhead/processes.js';
import type { Taken } from './fake-provider.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ToolFakeProvider extends Started {
  /** The gaps measured since the last take, and the sample requests. */
  take(): Promise<Taken>;
}

/** The scripted fake provider of this benchmark in its own process, asked for its measurements over IPC. */
export async function startToolFakeProvider(apiOrigin: string): Promise<ToolFakeProvider> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'bench/tool-call/fake-provider.ts'), apiOrigin],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    },
  );
  let buffer = '';
  let url = '';
  for await (const chunk of child.stdout!) {
    buffer += String(chunk);
    const match = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(buffer);
    if (match) {
      url = match[0];
      break;
    }
  }
  if (url === '') throw new Error('the fake provider ended before it was ready');
  return {
    process: child,
    url,
    take: async () => {
      const answer = once(child, 'message') as Promise<[Taken]>;
      child.send({ type: 'take' });
      const [taken] = await answer;
      return taken;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
