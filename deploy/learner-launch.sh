#!/usr/bin/env bash
# Start this node's part of the learner with DeepSpeed's launcher, without ssh: every
# learner node runs this script once (a pod of the Kubernetes learner Job, one SLURM task
# per node). DeepSpeed starts one rank per GPU and gives each RANK, LOCAL_RANK,
# WORLD_SIZE, MASTER_ADDR and MASTER_PORT; node 0's rank 0 is the hub.
#
#   deploy/learner-launch.sh CONFIG [dotted.override=value ...]     (as `krl learner`)
#
# Environment:
#   KRL_LEARNER_HOSTS  learner node hostnames, space-separated, node 0 first (required)
#   KRL_NODE_RANK      this node's index in KRL_LEARNER_HOSTS (default: found by hostname)
#   KRL_GPUS_PER_NODE  ranks per node (default: the GPUs nvidia-smi lists)
#   KRL_MASTER_PORT    torch.distributed rendezvous port on node 0 (default: 29500)
#
# SIGTERM/SIGINT go to every rank: each stops, and together they write a final checkpoint
# (DeepSpeed's launcher allows them 30 s, then kills; a restart resumes from the newest
# complete checkpoint either way).
set -euo pipefail

if [[ $# -lt 1 ]]; then
    echo "usage: $0 CONFIG [dotted.override=value ...]" >&2
    exit 2
fi
: "${KRL_LEARNER_HOSTS:?set KRL_LEARNER_HOSTS to the learner hostnames, node 0 first}"
read -r -a hosts <<< "$KRL_LEARNER_HOSTS"

node_rank="${KRL_NODE_RANK:-}"
if [[ -z "$node_rank" ]]; then
    for i in "${!hosts[@]}"; do
        if [[ "${hosts[$i]}" == "$(hostname)" || "${hosts[$i]}" == "$(hostname -s)" ]]; then
            node_rank=$i
        fi
    done
fi
if [[ -z "$node_rank" ]]; then
    echo "$(hostname) is not in KRL_LEARNER_HOSTS ($KRL_LEARNER_HOSTS); set KRL_NODE_RANK" >&2
    exit 2
fi
gpus="${KRL_GPUS_PER_NODE:-$(nvidia-smi -L | wc -l)}"

hostfile="$(mktemp "${TMPDIR:-/tmp}/krl-hostfile.XXXXXX")"
for host in "${hosts[@]}"; do
    echo "$host slots=$gpus"
done > "$hostfile"

echo "krl learner: node $node_rank of ${#hosts[@]}, $gpus rank(s) per node, master ${hosts[0]}" >&2
set -m  # the launcher and its ranks get a process group of their own, signalled as one
deepspeed --no_ssh --hostfile "$hostfile" --node_rank "$node_rank" \
    --num_nodes "${#hosts[@]}" --num_gpus "$gpus" \
    --master_addr "${hosts[0]}" --master_port "${KRL_MASTER_PORT:-29500}" \
    --module --no_local_rank launcher.cli learner "$@" &
launcher=$!
trap 'kill -TERM -- "-$launcher" 2>/dev/null || true' TERM INT

# `wait` returns early when a trapped signal arrives: keep waiting while the runner lives.
status=0
while kill -0 "$launcher" 2>/dev/null; do
    wait "$launcher" || status=$?
done
# The runner is gone; the ranks may still be writing their final checkpoint. Exiting now
# would end the container (or SLURM task) and kill them, so wait for the whole group.
while kill -0 -- "-$launcher" 2>/dev/null; do
    sleep 1
done
rm -f "$hostfile"
exit "$status"
