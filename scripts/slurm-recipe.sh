#!/usr/bin/env bash
# The README's cluster recipe, end to end, on a one-node Slurm started on this machine
# (scripts/slurm-local.sh): profile the nodes with cluster/profile-nodes.sbatch into a shared
# folder, import the folder into one store, plan across it with --emit, and check the emitted
# job with `sbatch --test-only`. Needs root and Debian's slurmctld, slurmd, slurm-client, munge.
#   scripts/slurm-recipe.sh [WORKDIR]      (npm run check:slurm)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(realpath -m "${1:-$(mktemp -d /tmp/pipedejavu-slurm.XXXXXX)}")
mkdir -p "$work"
for tool in slurmctld slurmd sbatch munged; do
  command -v "$tool" >/dev/null || { echo "slurm-recipe: $tool is missing: apt-get install slurmctld slurmd slurm-client munge" >&2; exit 2; }
done
"$root/scripts/slurm-local.sh" start "$work/slurm"
trap '"$root/scripts/slurm-local.sh" stop "$work/slurm"' EXIT
export SLURM_CONF="$work/slurm/slurm.conf"
export PIPEDEJAVU="$root/bin/pipedejavu.js" PIPEDEJAVU_SHARED="$work/shared"
export PROFILE_ARGS="${PROFILE_ARGS:---device cpu --threads 1}"
start=$(date +%s)
sbatch --wait --nodes=1 --output="$work/profile-%j.out" "$root/cluster/profile-nodes.sbatch"
echo "slurm-recipe: profile job done in $(( $(date +%s) - start )) s"
cat "$work"/profile-*.out | tail -n 5
store="$work/login.db"
"$PIPEDEJAVU" import "$PIPEDEJAVU_SHARED" --db "$store"
"$PIPEDEJAVU" machines --db "$store"
"$PIPEDEJAVU" train --db "$store" --predictor analytical
node=$(hostname -s)
"$PIPEDEJAVU" plan --workload gpt2-small --batch 8 --devices none --machine "$node" --emit "$work/plan" --db "$store" | tail -n 3
sbatch --test-only "$work/plan/job.sbatch"
echo "slurm-recipe: ok ($work)"
