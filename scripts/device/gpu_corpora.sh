#!/usr/bin/env bash
# On the device machine, from the repository root: the hack and honest corpora on the GPU.
#   HACKS='rt74_*,rt79_*'  globs of hack stems (tests/gpu/test_evaluator_gpu.py -k hack); empty: none
#   HONEST='s56m_*'        globs of honest stems (tests/gpu/test_honest_gpu.py); empty: none
#   STATIC=1               also honest/ files the CPU judges only statically (header's built-in problem)
#   HONEST_LIST=FILE       `path problem [policy]` lines: files judged only statically on the CPU
#   HACK_S / HONEST_S      time limits (s) of the two runs; CHILDREN sandboxes at once (12)
# Logs go to $OUT (the call's returned folder) as hacks.log and honest.log.
set -uo pipefail
source scripts/device/gpu_env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/device.txt"
if [ -n "${HACKS:-}" ]; then
  KRL_GPU_CHILDREN=${CHILDREN:-12} KRL_GPU_HACKS="$HACKS" timeout "${HACK_S:-200}" \
    python3 -m pytest -q -m gpu -s -p no:cacheprovider tests/gpu/test_evaluator_gpu.py -k hack 2>&1 | tee "$OUT/hacks.log"
fi
if [ -n "${HONEST:-}${HONEST_LIST:-}" ]; then
  env KRL_GPU_CHILDREN="${CHILDREN:-12}" KRL_GPU_HONEST="${HONEST:-none_}" ${HONEST_LIST:+KRL_GPU_HONEST_LIST=$HONEST_LIST} \
    ${STATIC:+KRL_GPU_HONEST_STATIC=1} \
    timeout "${HONEST_S:-300}" python3 -m pytest -q -m gpu -s -p no:cacheprovider tests/gpu/test_honest_gpu.py 2>&1 \
    | tee "$OUT/honest.log"
fi
