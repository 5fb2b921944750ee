"""Rewrites a model so that every node output is a graph output (test/helpers/onnx-shape-oracle.ts).

    python3 onnx_expose_outputs.py MODEL.onnx OUT.onnx TYPES_JSON

Each output is typed as onnx infers it or, for opsets onnx does not know, as TYPES_JSON
({tensor: elem_type}) says; ONNX Runtime then reports every tensor's real shape.
"""
import json
import sys

import onnx
from onnx import helper, shape_inference

path, out_path, given = sys.argv[1:4]
m = onnx.load(path, load_external_data=False)
types = json.loads(given)
try:
    inferred = shape_inference.infer_shapes(m, strict_mode=False)
    for v in list(inferred.graph.value_info) + list(inferred.graph.output):
        if v.type.tensor_type.elem_type:
            types[v.name] = v.type.tensor_type.elem_type
except Exception:
    pass
have = {o.name for o in m.graph.output}
inits = {t.name for t in m.graph.initializer}
for n in m.graph.node:
    for o in n.output:
        if o and o not in have and o not in inits and types.get(o):
            m.graph.output.append(helper.make_tensor_value_info(o, types[o], None))
            have.add(o)
onnx.save(m, out_path)
