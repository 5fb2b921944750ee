/**
 * ONNX ModelProto -> a lightweight IR (parse-types.ts): graph structure, tensor types and
 * shapes, attributes, small constants, and the sizes (never the bytes) of the weights. The
 * input is read in place: a 1 GB model costs its node list, not a second copy. Pure.
 *
 * Anything wrong with the input becomes a one-line UserError: not an ONNX model, truncated,
 * an unsupported IR version or opset, a graph with a cycle.
 */
import { UserError } from '../errors.js';
import { normalizeDomain, parseGraph } from './parse-graph.js';
import { topologicalOrder } from './parse-order.js';
import type { OnnxGraph, OnnxModel, OnnxOpset } from './parse-types.js';
import { ProtoFormatError, ProtoReader, ProtoTruncatedError, WIRE_LEN, WIRE_VARINT } from './protobuf-reader.js';

export * from './parse-types.js';

/** Default-domain opsets this tool reads (ONNX 1.2 to 1.18). */
const MIN_OPSET = 7;
const MAX_OPSET = 23;
/** IR versions this tool reads (IR 3 introduced opset imports; IR 11 is ONNX 1.18). */
const MIN_IR_VERSION = 3;
const MAX_IR_VERSION = 11;

/** Wire type of each ModelProto field; a known field with another wire type means "not ONNX". */
const MODEL_FIELDS: Record<number, number> = {
  1: WIRE_VARINT, // ir_version
  2: WIRE_LEN, // producer_name
  3: WIRE_LEN, // producer_version
  4: WIRE_LEN, // domain
  5: WIRE_VARINT, // model_version
  6: WIRE_LEN, // doc_string
  7: WIRE_LEN, // graph
  8: WIRE_LEN, // opset_import
  14: WIRE_LEN, // metadata_props
  20: WIRE_LEN, // training_info
  25: WIRE_LEN, // functions
};

export function parseOnnxModel(bytes: Uint8Array): OnnxModel {
  if (bytes.length === 0) throw new UserError('not an ONNX model: the file is empty');
  const r = new ProtoReader(bytes);
  let irVersion = 0;
  let producerName = '';
  let producerVersion = '';
  let graphReader: ProtoReader | null = null;
  const opsets: OnnxOpset[] = [];
  let recognized = false;
  try {
    for (let t = r.tag(); t; t = r.tag()) {
      const want = MODEL_FIELDS[t.field];
      if (want !== undefined && want !== t.wire) throw new ProtoFormatError(`field ${t.field} has wire type ${t.wire}`);
      switch (t.field) {
        case 1:
          irVersion = r.int64();
          recognized = true;
          break;
        case 2:
          producerName = r.string();
          break;
        case 3:
          producerVersion = r.string();
          break;
        case 7:
          graphReader = r.message();
          break;
        case 8:
          opsets.push(parseOpset(r.message()));
          recognized = true;
          break;
        default:
          r.skip(t.wire);
      }
    }
  } catch (e) {
    if (e instanceof ProtoTruncatedError && recognized) {
      throw new UserError(`the ONNX file is truncated (${e.message}); download or export it again`);
    }
    if (e instanceof ProtoTruncatedError || e instanceof ProtoFormatError) throw notOnnx(bytes, e.message);
    throw e;
  }
  if (!graphReader) throw notOnnx(bytes, 'it has no graph');
  if (irVersion === 0) throw notOnnx(bytes, 'it has no IR version');
  if (irVersion < MIN_IR_VERSION || irVersion > MAX_IR_VERSION) {
    throw new UserError(
      `unsupported ONNX IR version ${irVersion} (this tool reads IR versions ${MIN_IR_VERSION} to ${MAX_IR_VERSION})`,
    );
  }
  let graph: OnnxGraph;
  try {
    graph = parseGraph(graphReader);
  } catch (e) {
    if (e instanceof ProtoTruncatedError || e instanceof ProtoFormatError) {
      throw new UserError(`the ONNX file is corrupt: its graph cannot be decoded (${e.message})`);
    }
    throw e;
  }
  const opset = opsets.find((o) => o.domain === '')?.version ?? 0;
  checkOpset(opset, graph);
  graph.nodes = topologicalOrder(graph.nodes);
  const externalFiles: string[] = [];
  for (const t of graph.initializers) {
    if (t.external && !externalFiles.includes(t.external.location)) externalFiles.push(t.external.location);
  }
  return { irVersion, opsets, opset, producerName, producerVersion, graph, externalFiles };
}

function parseOpset(r: ProtoReader): OnnxOpset {
  let domain = '';
  let version = 0;
  for (let t = r.tag(); t; t = r.tag()) {
    if (t.field === 1 && t.wire === WIRE_LEN) domain = r.string();
    else if (t.field === 2 && t.wire === WIRE_VARINT) version = r.int64();
    else r.skip(t.wire);
  }
  return { domain: normalizeDomain(domain), version };
}

function checkOpset(opset: number, graph: OnnxGraph): void {
  const usesDefault = graph.nodes.some((n) => n.domain === '');
  if (opset === 0) {
    if (usesDefault) throw new UserError('invalid ONNX model: it uses ONNX operators but imports no ai.onnx opset');
    return;
  }
  if (opset < MIN_OPSET || opset > MAX_OPSET) {
    throw new UserError(
      `unsupported ONNX opset ${opset} (this tool reads opsets ${MIN_OPSET} to ${MAX_OPSET}); convert the model with onnx.version_converter`,
    );
  }
}

/** "not an ONNX model", with a hint when the bytes are text (a JSON or HTML file renamed). */
function notOnnx(bytes: Uint8Array, why: string): UserError {
  const head = bytes.subarray(0, 512);
  let printable = 0;
  for (const b of head) if ((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d) printable++;
  const text = new TextDecoder().decode(head).trimStart();
  const hint =
    text.startsWith('{') || text.startsWith('[')
      ? 'it is a JSON text file'
      : text.startsWith('<')
        ? 'it is an HTML/XML text file'
        : printable === head.length
          ? 'it is a text file'
          : why;
  return new UserError(`not an ONNX model: ${hint}`);
}
