#!/bin/sh
# The GPU check of issue 14, for the lent GPU machine (no Node there): run from the repository
# root with the bundle carried along (npm run bundle -- --vulkan, then carry
# bundle/pipedejavu-VERSION-linux-x64.tar.xz):
#
#   OUT=/some/dir sh bench/gpu-check/run.sh [cuda:0]
#
# Writes at most 8 files to $OUT: nvidia-smi.txt (every nvidia-smi output read, for fixtures),
# probe.json, roofline.json, profile.json (the exported hardware profile), predictions.json
# (GPT-2 medium and BERT-large predicted from that profile), reference.json (PyTorch's own
# GEMM, copy and layer figures: torch_reference.py), log.txt. Each step is time
# boxed so that one call stays inside the machine's 10 minutes; a step that fails is logged and
# the others still run. bench/gpu-check-compare.ts turns the files into RESULTS figures here.
set -u
OUT=${OUT:-/tmp/gpu-check-out}
GPU=${1:-cuda:0}
mkdir -p "$OUT"
log() { printf '%s\n' "$*" >> "$OUT/log.txt"; }
step() { log "== $(date -u +%H:%M:%S) $*"; }

work=$(mktemp -d)
archive=$(ls bundle/pipedejavu-*-linux-x64.tar.xz 2>/dev/null | head -n 1)
if [ -z "$archive" ]; then echo "gpu-check: no bundle/pipedejavu-*-linux-x64.tar.xz (npm run bundle)" >&2; exit 1; fi
step "unpack $archive"
tar -C "$work" -xJf "$archive" 2>>"$OUT/log.txt" ||
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$archive" "$work" 2>>"$OUT/log.txt"
pdj=$(ls "$work"/pipedejavu-*/bin/pipedejavu)
db="$work/gpu.db"

step "nvidia-smi"
for args in "" "-L" "-q" "--query-gpu=index,name,uuid,pci.bus_id,memory.total,compute_cap,clocks.max.sm,clocks.max.mem,pcie.link.gen.max,pcie.link.width.max,power.limit,mig.mode.current,driver_version --format=csv" "--query-gpu=index,clocks.current.sm,temperature.gpu,power.draw,clocks_event_reasons.active,clocks_throttle_reasons.active --format=csv,noheader,nounits" "topo -m" "nvlink -s"; do
  printf '\n===== nvidia-smi %s\n' "$args" >> "$OUT/nvidia-smi.txt"
  # shellcheck disable=SC2086
  timeout 30 nvidia-smi $args >> "$OUT/nvidia-smi.txt" 2>&1
done

step "probe"
timeout 60 "$pdj" probe --db "$db" --json > "$OUT/probe.json" 2>> "$OUT/log.txt"
step "profile $GPU, PyTorch backend"
timeout -s INT 200 "$pdj" profile --db "$db" --device "$GPU" --backend torch >> "$OUT/log.txt" 2>&1
step "profile $GPU, ONNX Runtime CUDA provider (expected: not installed)"
timeout -s INT 30 "$pdj" profile --db "$db" --device "$GPU" >> "$OUT/log.txt" 2>&1
step "profile webgpu:0"
timeout -s INT 120 "$pdj" profile --db "$db" --device webgpu:0 >> "$OUT/log.txt" 2>&1
step "roofline"
"$pdj" roofline --db "$db" >> "$OUT/log.txt" 2>&1
"$pdj" roofline --db "$db" --json > "$OUT/roofline.json" 2>> "$OUT/log.txt"
"$pdj" export --db "$db" --out "$OUT/profile.json" >> "$OUT/log.txt" 2>&1
"$pdj" roofline --db "$db" --datasheet >> "$OUT/log.txt" 2>&1

step "train, then predict GPT-2 medium and BERT-large (bf16, batch 8) on $GPU"
timeout 120 "$pdj" train --db "$db" >> "$OUT/log.txt" 2>&1
for spec in gpt2-medium:1024 bert-large:512; do
  for mode in inference training; do
    timeout 60 "$pdj" predict-model "${spec%%:*}" --db "$db" --device "$GPU" --dtype bf16 --batch 8 \
      --seq "${spec##*:}" --mode "$mode" --json > "$work/pred-${spec%%:*}-$mode.json" 2>> "$OUT/log.txt"
  done
done
python3 - "$work" "$OUT/predictions.json" <<'PY'
import glob, json, os, sys
out = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "pred-*.json"))):
    model, mode = os.path.basename(f)[5:-5].rsplit("-", 1)
    try:
        p = json.load(open(f))
        out.setdefault(model, {})[mode] = {k: p[k] for k in ("device", "predictor", "totalUs", "layers", "warnings", "familyShare")}
    except Exception as e:
        out.setdefault(model, {})[mode] = {"error": str(e)}
json.dump(out, open(sys.argv[2], "w"))
PY
step "PyTorch reference"
timeout 180 python3 "$(dirname "$0")/torch_reference.py" --device "$GPU" > "$OUT/reference.json" 2>> "$OUT/log.txt"
step "done"
tail -n 40 "$OUT/log.txt"
