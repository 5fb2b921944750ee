#!/usr/bin/env bash
# Runs tests with ONNX Runtime's children on an emulated AVX2-only CPU (Haswell: 8-wide NCHWc,
# no AVX-512), to catch tests that assume one CPU's layout. Slow (the emulator): pick files.
#   bash scripts/check-avx2.sh test/unit/services/measure/measure-model-service.test.ts
# Needs Debian's qemu-user (apt-get install qemu-user).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v qemu-x86_64 >/dev/null || { echo "check-avx2: needs qemu-x86_64 (apt-get install qemu-user)" >&2; exit 1; }
[ "$#" -gt 0 ] || set -- test/unit/services/profile/profiler-service.test.ts test/unit/services/measure/measure-model-service.test.ts \
  test/unit/services/predict/executed-prediction.test.ts test/unit/adapters/ort/timing-methods.test.ts
wrap="$(mktemp -d)"
trap 'rm -rf "$wrap"' EXIT
printf '#!/bin/sh\nexec qemu-x86_64 -cpu Haswell %q "$@"\n' "$(command -v node)" > "$wrap/node"
chmod +x "$wrap/node"
PIPEDEJAVU_CHILD_EXEC="$wrap/node" npx vitest run --testTimeout=600000 "$@"
