/**
 * How much a second thread helps a small parallel node that sits between serial ones, as in
 * real graphs (the kernel suites time chains of one op instead). A model of P small MatMuls
 * (8x256 by 256x256, tens of microseconds), each followed by five tiny Adds on a side path
 * that ORT runs on one thread; one MatMul's time is (T(5) - T(1)) / 4 of the timing loop.
 *
 * Here its 2-thread time flipped between two levels from one minute to the next: about 0.6x
 * the 1-thread time, or about 1.1x (no help from the second thread at all). The bench runs
 * it before and after the models so each run says which the host was in.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { encodeModel, OnnxDataType, type NodeDef } from '../../src-main/core/onnx/model-builder.js';

const M = 8;
const D = 256;
const SIDE = 2048;
const SERIAL_PER_MATMUL = 5;

function weights(n: number): Uint8Array {
  const f = new Float32Array(n);
  for (let i = 0; i < n; i++) f[i] = Math.sin(i * 12.9898) * 0.03;
  return new Uint8Array(f.buffer);
}

function probeModel(matmuls: number): Uint8Array {
  const nodes: NodeDef[] = [];
  let main = 'X';
  let side = 'S';
  let k = 0;
  for (let m = 0; m < matmuls; m++) {
    const y = `t${k++}`;
    nodes.push({ opType: 'MatMul', inputs: [main, 'W'], outputs: [y], name: `mm${m}` });
    main = y;
    for (let r = 0; r < SERIAL_PER_MATMUL; r++) {
      const z = `t${k++}`;
      nodes.push({ opType: 'Add', inputs: [side, side], outputs: [z], name: `add${m}_${r}` });
      side = z;
    }
  }
  nodes.push({ opType: 'Identity', inputs: [main], outputs: ['Y'], name: 'y' });
  nodes.push({ opType: 'Identity', inputs: [side], outputs: ['Z'], name: 'z' });
  return encodeModel({
    graph: {
      name: 'parallel-probe',
      nodes,
      initializers: [{ name: 'W', dataType: OnnxDataType.FLOAT, dims: [D, D], rawData: weights(D * D) }],
      inputs: [
        { name: 'X', elemType: OnnxDataType.FLOAT, dims: [M, D] },
        { name: 'S', elemType: OnnxDataType.FLOAT, dims: [1, SIDE] },
      ],
      outputs: [
        { name: 'Y', elemType: OnnxDataType.FLOAT, dims: [M, D] },
        { name: 'Z', elemType: OnnxDataType.FLOAT, dims: [1, SIDE] },
      ],
    },
  });
}

export interface ProbeModels {
  one: string;
  five: string;
  inputs: Record<string, number[]>;
}

/** Writes the 1- and 5-MatMul probe models into `dir`. */
export function writeProbeModels(dir: string): ProbeModels {
  const one = path.join(dir, 'parallel-probe-1.onnx');
  const five = path.join(dir, 'parallel-probe-5.onnx');
  writeFileSync(one, probeModel(1));
  writeFileSync(five, probeModel(5));
  return { one, five, inputs: { X: [M, D], S: [1, SIDE] } };
}
