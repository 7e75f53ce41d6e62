import os from "node:os";

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  date: string;
  /** One-minute load average when the run started: other work on a shared machine skews figures. */
  loadAverage1m: number;
}

export function describeMachine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    date: new Date().toISOString(),
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
  };
}

export function machineLine(machine: Machine): string {
  return `${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.date.slice(0, 10)} (load average ${machine.loadAverage1m} at start)`;
}
