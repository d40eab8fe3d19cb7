// Loaded with `--import` into the agentd a benchmark starts (NODE_OPTIONS does
// not accept --cpu-prof): profiles the whole process and writes the profile
// to CPU_PROFILE_DIR when it exits, in the format of node --cpu-prof.
// With CPU_PROFILE_FROM_SIGNAL set the profile starts at the first SIGUSR2
// instead, so that a benchmark can leave start-up and warm-up out of it.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const directory = process.env.CPU_PROFILE_DIR;
if (directory) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  if (process.env.CPU_PROFILE_FROM_SIGNAL) process.once('SIGUSR2', () => session.post('Profiler.start'));
  else session.post('Profiler.start');
  // The in-thread session answers synchronously, so the profile is written before the process ends.
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (!error)
        writeFileSync(path.join(directory, `agentd-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
