import type { Command } from '../command.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { machinesCommand } from './machines.js';
import { probeCommand } from './probe.js';
import { profileCommand } from './profile.js';
import { rooflineCommand } from './roofline.js';

export const COMMANDS: Command[] = [
  probeCommand,
  profileCommand,
  rooflineCommand,
  machinesCommand,
  exportCommand,
  importCommand,
];
