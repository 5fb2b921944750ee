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
import { workloadCommand } from './workload.js';
import { predictModelCommand } from './predict-model.js';
import { measureModelCommand } from './measure-model.js';
import { planCommand } from './plan.js';
import { fitCommand } from './fit.js';
import { servePlanCommand } from './serve-plan.js';
import { gpusCommand } from './gpus.js';
import { serveCommand } from './serve.js';
import { doctorCommand } from './doctor.js';
import { compareCommand } from './compare.js';
import { completionCommand } from './completion.js';

export const COMMANDS: Command[] = [
  probeCommand,
  profileCommand,
  rooflineCommand,
  trainCommand,
  evaluateCommand,
  predictCommand,
  predictorCommand,
  workloadCommand,
  predictModelCommand,
  measureModelCommand,
  planCommand,
  fitCommand,
  servePlanCommand,
  gpusCommand,
  machinesCommand,
  exportCommand,
  importCommand,
  serveCommand,
  compareCommand,
  doctorCommand,
  completionCommand(() => COMMANDS),
];
