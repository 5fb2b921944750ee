import type { Command } from '../command.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { machinesCommand } from './machines.js';
import { probeCommand } from './probe.js';

export const COMMANDS: Command[] = [probeCommand, machinesCommand, exportCommand, importCommand];
