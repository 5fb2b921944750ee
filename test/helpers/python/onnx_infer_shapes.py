"""onnx.shape_inference (with data propagation) as a test oracle (test/helpers/onnx-shape-oracle.ts).

    python3 onnx_infer_shapes.py MODEL.onnx BINDINGS.json OUT.json

BINDINGS.json gives graph inputs static shapes ({name: [dims]}) before inference; OUT.json gets
every tensor's dims (numbers, symbolic names or null), or null for an unknown rank.
"""
import json, sys
import onnx
from onnx import shape_inference

path, binding_path, out_path = sys.argv[1:4]
bind = json.load(open(binding_path))
m = onnx.load(path, load_external_data=False)
for i in m.graph.input:
    dims = bind.get(i.name)
    if dims is None:
        continue
    shape = i.type.tensor_type.shape
    del shape.dim[:]
    for d in dims:
        shape.dim.add().dim_value = d
m = shape_inference.infer_shapes(m, strict_mode=False, data_prop=True)
def dims(v):
    t = v.type.tensor_type
    if not t.HasField('shape'):
        return None
    return [d.dim_value if d.HasField('dim_value') else (d.dim_param or None) for d in t.shape.dim]
out = {}
for v in list(m.graph.value_info) + list(m.graph.output) + list(m.graph.input):
    if v.type.HasField('tensor_type'):
        out[v.name] = dims(v)
json.dump(out, open(out_path, 'w'))
