/**
 * The devices of a plan: this machine's named ones, the imported machines' (ids, labels or
 * patterns), and datasheet GPUs, each with its features and what predicts it; the machines'
 * probed links and RAM.
 */
import { quoted } from '../../core/text/shown.js';
import { MachineRepo, type MachineDetail } from '../../adapters/store/machine-repo.js';
import type { Database } from '../../adapters/store/types.js';
import { isTorchEpName } from '../../core/domain/execution-provider.js';
import { UserError } from '../../core/errors.js';
import { parseVirtualGpus, virtualDevice } from '../../core/planner/cost/datasheets.js';
import type { MachineLinks } from '../../core/planner/cost/links.js';
import { datasheetCandidate, type DatasheetRequest } from '../../core/planner/problem/datasheet-candidate.js';
import { deviceKeys } from '../../core/planner/search/device-selection.js';
import type { PlanCandidate } from '../../core/planner/search/plan-candidate.js';
import type { HostMemory, Mode } from '../../core/planner/types.js';
import type { CatalogEntry } from '../../core/catalog/index.js';
import { GPUS_PER_VIRTUAL_NODE, virtualNodes } from '../../core/planner/problem/virtual-nodes.js';
import { globMatches, isGlob } from '../../core/text/glob.js';
import { count } from '../../core/text/plural.js';
import { datasheetCheckLine } from '../predict/datasheet-check-service.js';
import { isDecoder } from './serving-plan.js';
import { transferredTable, type TransferredTable } from '../predict/datasheet-transfer.js';
import { deviceMemoryBytes } from './device-memory.js';
import { decodeBandwidthGBps } from '../predict/stream-rate.js';
import { findMachine, listMachines } from '../machine/machine-service.js';
import { preferredGroup } from '../predict/profiled-device.js';
import { conditionsWarning } from '../profile/run-conditions-service.js';
import { loadTrainingData } from '../predict/training-data.js';

/** The devices of the plan: this machine's named ones, the imported machines', and datasheet GPUs. */
export interface PlanDevices {
  candidates: PlanCandidate[];
  /** Each machine's probed links, under its label in the plan. */
  machineLinks: MachineLinks[];
  /** Each probed machine's RAM (the host of an optimizer offload), under its label in the plan. */
  hostMemory: Record<string, HostMemory>;
  /** The network assumed between the nodes of a datasheet cluster (virtualNodes); absent: none assumed. */
  assumedNetwork?: string;
}

/** What the device resolution reads of a plan request. */
export interface DevicesRequest extends Omit<DatasheetRequest, 'model'> {
  devices: string;
  /** Serving a decoder on an engine: its own band states the error, not the kernel roofline's. */
  engine?: string | undefined;
  machine?: string | undefined;
  virtual?: string[] | undefined;
  network?: string | undefined;
}

function profiledCandidates(
  db: Database,
  machine: MachineDetail,
  keys: string[] | 'all',
  label: string,
  mode: Mode,
  warnings: string[],
): PlanCandidate[] {
  const data = loadTrainingData(db, { machineId: machine.id });
  const { devices } = data;
  const byKey = new Map<string, (typeof devices)[number]>();
  for (const key of new Set(devices.map((d) => d.deviceKey))) {
    const best = preferredGroup(
      devices.filter((d) => d.deviceKey === key),
      mode,
    );
    if (best) byKey.set(key, best);
  }
  const wanted = keys === 'all' ? [...byKey.keys()] : keys;
  return wanted.map((key) => {
    const g = byKey.get(key);
    if (!g) {
      // The key is the user's own text: suggest a command only for a real device name.
      const advice = /^(cpu|cuda:\d{1,3}|webgpu:\d{1,3})$/.test(key)
        ? `run pipedejavu profile --device ${key}`
        : 'name devices like cpu, cuda:0 or all';
      throw new UserError(
        `${label}: device ${quoted(key)} was never profiled (profiled: ${[...byKey.keys()].join(', ') || 'none'}); ${advice}`,
      );
    }
    const hardware = machine.devices.find((d) => d.key === key)?.name ?? key;
    const name = isTorchEpName(g.executionProvider) ? `${hardware} (PyTorch)` : hardware;
    warnings.push(...conditionsWarning(db, g).map((w) => `${label}: ${w}`));
    return {
      device: {
        id: `${label}/${key}`,
        name,
        kind: key === 'cpu' ? 'cpu' : 'gpu',
        machine: label,
        memoryBytes: deviceMemoryBytes(machine, key),
        estimate: 'profiled',
      },
      features: g.features,
      decodeGBps: decodeBandwidthGBps(db, g, data) ?? g.features.bandwidthGBps,
    };
  });
}

/**
 * The machines `--machine` names, in order and once each: ids, labels, or patterns (node*, all
 * imported machines with *); a name or a pattern that matches nothing is a user error.
 */
function importedMachineIds(db: Database, list: string, local: string | undefined): string[] {
  const all = listMachines(db);
  const ids: string[] = [];
  for (const name of list
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const matches = isGlob(name)
      ? all.filter((m) => globMatches(name, m.label))
      : all.filter((m) => m.id === name || m.label === name);
    // This machine is in the plan already (--devices): an imported one of the same name is meant.
    const others = matches.filter((m) => m.id !== local);
    const found = isGlob(name) || others.length > 0 ? others : matches.slice(0, 1);
    if (matches.length === 0)
      throw new UserError(
        isGlob(name)
          ? `no machine in the store matches ${quoted(name)} (see pipedejavu machines)`
          : `no machine ${quoted(name)} in the store (see pipedejavu machines)`,
      );
    for (const m of found) if (m.id !== local && !ids.includes(m.id)) ids.push(m.id);
    if (!isGlob(name) && others.length > 1)
      throw new UserError(
        `${count(matches.length, 'machine')} are called ${quoted(name)}: name one by its id (see pipedejavu machines)`,
      );
  }
  return ids;
}

/**
 * Datasheet GPUs join the plan: in this machine ("what if I add an H100 here?") unless none is in
 * the plan, else in virtual nodes; each with its check line and, when a profiled GPU of the same
 * architecture lends its measured fractions, those (once per GPU model).
 */
function addDatasheetGpus(
  db: Database,
  out: PlanDevices,
  req: DevicesRequest,
  model: CatalogEntry | null,
  warnings: string[],
): void {
  const host = out.candidates[0]?.device.machine;
  const asked = parseVirtualGpus(req.virtual ?? []);
  warnings.push(...asked.flatMap((g) => (g.note !== null ? [g.note] : [])));
  const datasheets = asked.flatMap((g) => Array<string>(g.count).fill(g.datasheet.name));
  // One check per GPU model: it predicts every kernel of the measured ones.
  const checkLines = new Map<string, string>();
  const nodes = virtualNodes(datasheets, host);
  if (nodes.network && !req.network) {
    out.assumedNetwork = nodes.network;
    warnings.push(
      `${count(datasheets.length, 'datasheet GPU')} are planned as ${count(new Set(nodes.machines).size, 'node')} of ${GPUS_PER_VIRTUAL_NODE} (NVLink inside), linked by ${nodes.network} with one NIC per GPU; give --network to state another`,
    );
  }
  const transfers = new Map<string, TransferredTable | null>();
  for (const [i, name] of datasheets.entries()) {
    const v = virtualDevice(name, { index: i, machine: nodes.machines[i] ?? 'virtual' });
    if (!transfers.has(name)) {
      const t = transferredTable(db, v.datasheet);
      transfers.set(name, t);
      if (t) warnings.push(t.note);
    }
    const transfer = transfers.get(name) ?? null;
    const engineServes = req.mode === 'inference' && isDecoder(model) && req.engine !== 'ideal';
    const check = engineServes
      ? "its serving figures carry the engine's band (bench/engines)"
      : (checkLines.get(name) ?? datasheetCheckLine(db, name));
    checkLines.set(name, check);
    warnings.push(...v.warnings, `${name} is from its datasheet, not measured. ${check}`);
    out.candidates.push(
      datasheetCandidate(
        v,
        { model, mode: req.mode, weights: req.weights, attention: req.attention, fusedAttention: req.fusedAttention },
        transfer?.table,
      ),
    );
  }
}

/** The devices of the plan; `model`: the planned model's description (it sets datasheet GPUs' predictors). */
export function planDevices(
  db: Database,
  req: DevicesRequest,
  model: CatalogEntry | null,
  warnings: string[],
): PlanDevices {
  const machines = new MachineRepo(db);
  const out: PlanDevices = { candidates: [], machineLinks: [], hostMemory: {} };
  const labels = new Set<string>();
  const addMachine = (id: string, keys: string[] | 'all'): void => {
    const detail = machines.getMachine(id);
    if (!detail) throw new UserError(`machine ${id} vanished from the store`);
    // Two machines may share a hostname: the second is told apart by its id.
    const label = labels.has(detail.label) ? `${detail.label}~${detail.id.slice(0, 6)}` : detail.label;
    labels.add(label);
    out.candidates.push(...profiledCandidates(db, detail, keys, label, req.mode, warnings));
    out.machineLinks.push({ machine: label, links: detail.links });
    if (detail.probe.memory.totalBytes > 0)
      out.hostMemory[label] = { bytes: detail.probe.memory.totalBytes, source: 'probed' };
  };
  if (req.devices !== 'none') {
    const local = findMachine(db);
    // "all" of a machine nobody profiled is nothing: datasheet GPUs alone are planned, and said so.
    if (!local && req.devices === 'all' && (req.virtual?.length ?? 0) > 0)
      warnings.push('no machine profiled here: only the datasheet GPUs are planned (pipedejavu profile adds this one)');
    else if (!local) throw new UserError('no machine recorded yet: run `pipedejavu profile` first');
    else addMachine(local.id, deviceKeys(req.devices));
  }
  // Imported machines (ids, labels or patterns like node*, comma separated): a virtual cluster of the lab's machines.
  const local = req.devices !== 'none' ? findMachine(db)?.id : undefined;
  for (const id of importedMachineIds(db, req.machine ?? '', local)) addMachine(id, 'all');
  addDatasheetGpus(db, out, req, model, warnings);
  if (out.candidates.length === 0)
    throw new UserError('no devices to plan for: name some with --devices, --machine or --virtual');
  return out;
}
