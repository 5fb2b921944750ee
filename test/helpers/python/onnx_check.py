"""The official ONNX checker as a test oracle (test/helpers/onnx-oracle.ts).

    python3 onnx_check.py MODEL.onnx...

For each model, one JSON line: {"file", "error"} and, where check_model(full_check=True) passes,
"model": how the official parser reads it back (opsets, nodes and attributes, inputs, outputs,
initializers with their leading values).
"""
import json, sys
import onnx
from onnx import checker, numpy_helper

def dims(vi):
    return [d.dim_param if d.HasField('dim_param') else d.dim_value for d in vi.type.tensor_type.shape.dim]

def first(t):
    # Leading values of small tensors only: decoding a 64 MiB weight just for this costs time.
    count = 1
    for d in t.dims:
        count *= d
    if t.data_type == 16 or count > 65536:
        return []
    return numpy_helper.to_array(t).reshape(-1)[:4].astype('float64').tolist()

for path in sys.argv[1:]:
    out = {'file': path, 'error': None}
    try:
        m = onnx.load(path)
        checker.check_model(m, full_check=True)
        g = m.graph
        out['model'] = {
            'irVersion': m.ir_version,
            'producerName': m.producer_name,
            'producerVersion': m.producer_version,
            'opsets': [{'domain': o.domain, 'version': o.version} for o in m.opset_import],
            'graphName': g.name,
            'nodes': [{'opType': n.op_type, 'name': n.name, 'domain': n.domain, 'inputs': list(n.input), 'outputs': list(n.output),
                       'attributes': {a.name: onnx.helper.get_attribute_value(a) if a.type != onnx.AttributeProto.TENSOR else 'tensor'
                                      for a in n.attribute}} for n in g.node],
            'inputs': [{'name': v.name, 'elemType': v.type.tensor_type.elem_type, 'dims': dims(v)} for v in g.input],
            'outputs': [{'name': v.name, 'elemType': v.type.tensor_type.elem_type, 'dims': dims(v)} for v in g.output],
            'initializers': [{'name': t.name, 'dataType': t.data_type, 'dims': list(t.dims),
                              'first': first(t)}
                             for t in g.initializer],
        }
    except Exception as e:
        out['error'] = f'{type(e).__name__}: {e}'
    print(json.dumps(out, default=lambda v: v.decode() if isinstance(v, bytes) else str(v)), flush=True)
