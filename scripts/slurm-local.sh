#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for trying the README's cluster recipe for real:
#   scripts/slurm-local.sh start DIR   # writes DIR/slurm.conf, starts munged, slurmctld and slurmd
#   export SLURM_CONF=DIR/slurm.conf   # then sbatch, srun, sinfo talk to it
#   scripts/slurm-local.sh stop DIR
# Needs Debian's slurmctld, slurmd, slurm-client and munge (apt-get install), and root.
set -euo pipefail
cmd=${1:?start|stop}
dir=$(realpath -m "${2:?DIR}")
host=$(hostname -s)

start() {
  mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
  local cpus mem
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 * 8 / 10 ))
  cat >"$dir/slurm.conf" <<CONF
ClusterName=pipedejavu-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CryptoType=crypto/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldPort=6917
SlurmdPort=6918
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
  if ! pgrep -x munged >/dev/null; then
    mkdir -p /etc/munge /run/munge /var/log/munge /var/lib/munge
    [ -s /etc/munge/munge.key ] || dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
    chown -R munge:munge /etc/munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null || true
    chmod 0400 /etc/munge/munge.key
    if id munge >/dev/null 2>&1; then runuser -u munge -- /usr/sbin/munged; else /usr/sbin/munged --force; fi
  fi
  /usr/sbin/slurmctld -f "$dir/slurm.conf"
  /usr/sbin/slurmd -f "$dir/slurm.conf"
  for _ in $(seq 1 60); do
    if SLURM_CONF="$dir/slurm.conf" sinfo -h -o '%t' 2>/dev/null | grep -Eq '^(idle|mix|alloc)'; then
      echo "slurm-local: $host up (SLURM_CONF=$dir/slurm.conf)"
      return 0
    fi
    sleep 1
  done
  echo "slurm-local: the node did not come up; see $dir/slurmctld.log and $dir/slurmd.log" >&2
  return 1
}

stop() {
  for pid in "$dir/slurmd.pid" "$dir/slurmctld.pid"; do
    [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  echo "slurm-local: stopped"
}

case "$cmd" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
