import type { Command } from '../command.js';
import { exportCommand } from './export.js';
import { importCommand } from './import.js';
import { machinesCommand } from './machines.js';
import { probeCommand } from './probe.js';
import { profileCommand } from './profile.js';
import { rooflineCommand } from './roofline.js';
import { trainCommand } from './train.js';
import { predictCommand } from './predict.js';
import { evaluateCommand } from './evaluate.js';
import { predictorCommand } from './predictor.js';

export const COMMANDS: Command[] = [
  probeCommand,
  profileCommand,
  rooflineCommand,
  trainCommand,
  evaluateCommand,
  predictCommand,
  predictorCommand,
  machinesCommand,
  exportCommand,
  importCommand,
];
