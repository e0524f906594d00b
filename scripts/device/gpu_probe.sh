#!/usr/bin/env bash
# On the device machine, from the repository root: honest files (and variants of one) with the
# processes' memory sampled every 5 s, the installed Triton's do_bench printed, then hacks.
#   HONEST='s57h_02*'     globs of honest stems (tests/gpu/test_honest_gpu.py)
#   VARIANTS=DIR PROBLEM  every DIR/*.py judged on PROBLEM (files an ignored, carried folder holds)
#   HACKS='s59c_*'        globs of hack stems; HONEST_S / HACK_S time limits; CHILDREN sandboxes
# Logs go to $OUT: honest.log, hacks.log, rss.log (largest processes), triton_do_bench.txt.
set -uo pipefail
source scripts/device/gpu_env.sh
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader | tee "$OUT/device.txt"
python3 -c "import inspect, triton, triton.testing as t; print(triton.__version__); print(inspect.getsource(t.do_bench))" \
  > "$OUT/triton_do_bench.txt" 2>&1
( while sleep 5; do date +%T; ps -eo pid,rss,etimes,args --sort=-rss | head -4 | cut -c1-160; done ) > "$OUT/rss.log" 2>&1 &
SAMPLER=$!
: > /tmp/variants.txt
if [ -n "${VARIANTS:-}" ]; then
  read -r dir problem <<< "$VARIANTS"
  for v in "$dir"/*.py; do echo "$v $problem"; done > /tmp/variants.txt
fi
env KRL_GPU_CHILDREN="${CHILDREN:-12}" KRL_GPU_HONEST="${HONEST:-none_}" KRL_GPU_HONEST_LIST=/tmp/variants.txt \
  timeout "${HONEST_S:-200}" python3 -m pytest -q -m gpu -s -p no:cacheprovider tests/gpu/test_honest_gpu.py > "$OUT/honest.log" 2>&1
if [ -n "${HACKS:-}" ]; then
  KRL_GPU_CHILDREN="${CHILDREN:-12}" KRL_GPU_HACKS="$HACKS" timeout "${HACK_S:-120}" \
    python3 -m pytest -q -m gpu -s -p no:cacheprovider tests/gpu/test_evaluator_gpu.py -k hack > "$OUT/hacks.log" 2>&1
fi
kill $SAMPLER
