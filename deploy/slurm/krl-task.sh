#!/usr/bin/env bash
# One SLURM task of one krl role (krl.sbatch runs it under srun): adds what differs per
# task (bind addresses, per-GPU metrics ports and worker ids) and execs the role.
#
#   krl-task.sh ROLE CONFIG [dotted.override=value ...]
#
# Metrics ports (deploy/prometheus/prometheus.yml's convention): learner 9400 (+ local
# rank), broker 9401, evaluator 9410 + local task id, actor 9420 + local task id.
set -euo pipefail

role=${1:?usage: krl-task.sh ROLE CONFIG [overrides]}
config=${2:?usage: krl-task.sh ROLE CONFIG [overrides]}
shift 2
local_id=${SLURM_LOCALID:-0}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

case "$role" in
    learner)
        exec "$here/../learner-launch.sh" "$config" "$@" \
            "hub_link.endpoint=tcp://*:5560" "hub_link.publish_endpoint=tcp://*:5561"
        ;;
    broker)
        exec krl broker "$config" "$@" \
            "broker.frontend=tcp://*:5555" "broker.backend=tcp://*:5556"
        ;;
    evaluator)
        exec krl evaluator "$config" "$@" \
            "evaluator.worker.worker_id=$(hostname -s)-gpu$local_id" \
            "evaluator.metrics.port=$((9410 + local_id))"
        ;;
    actor)
        exec krl actor "$config" "$@" "actor.metrics.port=$((9420 + local_id))"
        ;;
    *)
        echo "krl-task.sh: unknown role '$role' (learner, broker, evaluator, actor)" >&2
        exit 2
        ;;
esac
