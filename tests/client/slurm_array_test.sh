#!/usr/bin/env bash
# The sharded scan on a real Slurm: starts a one-node cluster (Debian's slurmctld and slurmd) on
# 127.0.0.1 in a temporary directory, runs contrib/slurm/kerchunk-slurm-scan over a shared time
# series (an array job of `scan --shard K/N`, then a dependent `combine`), and requires the
# combined file to be byte-identical to one `kerchunk scan` of all the files.
#
# Usage: slurm_array_test.sh KERCHUNK SCRIPT SHARED_DATA_DIR
# Exit 77 (ctest: skipped) when Slurm is not installed, cannot start here, or the data is absent.
set -euo pipefail

kerchunk=$(realpath "$1")
script=$(realpath "$2")
data=$3
series="$data/timeseries/nc4_cmip6_siconc_MPI-ESM1-2-HR_mon_33files"
shards=4

skip() {
  echo "SKIPPED: $*"
  exit 77
}

for tool in slurmctld slurmd sbatch sinfo scancel; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (Debian: slurmctld slurmd)"
done
[ -d "$series" ] || skip "$series is absent"
# The cluster runs jobs as the user starting it; slurmd needs root to launch them as such.
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to launch jobs"

work=$(mktemp -d "${TMPDIR:-/tmp}/kerchunk-slurm.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((ctld_port + 1))

mkdir -p "$work/state" "$work/spool" "$work/out"
# auth/none: the cluster listens on loopback only and lives for this test; a real cluster
# authenticates with munge. proctrack/pgid and task/none need no cgroups, which containers
# often lack.
cat >"$work/slurm.conf" <<EOF
ClusterName=kerchunktest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/none
CredType=cred/none
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=30 State=UP
EOF
export SLURM_CONF="$work/slurm.conf"

slurmctld -D -f "$SLURM_CONF" >"$work/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$work/slurmd.out" 2>&1 &
pids+=($!)

ready=0
for _ in $(seq 1 60); do
  if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then
    ready=1
    break
  fi
  sleep 0.5
done
if [ "$ready" = 0 ]; then
  tail -n 5 "$work"/*.log "$work"/*.out 2>/dev/null || true
  skip "the one-node Slurm did not become ready within 30 s"
fi

# The array job and its dependent combine, as a user would submit them.
timeout 600 "$script" -n "$shards" -o "$work/out/combined.json" --kerchunk "$kerchunk" --wait \
  -- "$series" --concat-dim time

for ((k = 0; k < shards; k++)); do
  part=$(printf '%s/out/combined.json.parts/part-%03d.json' "$work" "$k")
  [ -s "$part" ] || { echo "FAILED: shard $k wrote no part ($part)"; exit 1; }
done

"$kerchunk" scan "$series" --concat-dim time -o "$work/out/single.json" --quiet
if ! cmp "$work/out/combined.json" "$work/out/single.json"; then
  echo "FAILED: the Slurm array job's combined references differ from one scan"
  exit 1
fi

# A failing task fails the whole submission: the combine job is cancelled and --wait says so.
set +e
timeout 600 "$script" -n 2 -o "$work/out/bad.json" --kerchunk "$kerchunk" --wait \
  -- "$work/does-not-exist" --concat-dim time >"$work/bad.out" 2>&1
status=$?
set -e
if [ "$status" -ne 1 ] || [ -e "$work/out/bad.json" ]; then
  cat "$work/bad.out"
  echo "FAILED: a failed scan task must give exit status 1 and no output (got $status)"
  exit 1
fi
echo "PASSED: $shards Slurm array tasks + combine == one scan of $(ls "$series" | wc -l) files"
