#!/usr/bin/env bash
# `make demo`: the most complete real thing krl runs today, on a CPU-only machine.
#   1. make the tiny random-weight model the tests and the RL demo use
#   2. evaluate candidate kernels with the hardened evaluator under Triton's CPU
#      interpreter: a correct kernel, then reward hacks that must never be "ok"
# Nothing here is simulated; timings are CPU-interpreter timings, not GPU speedups.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${KRL_DEMO_DIR:-runs/demo}
mkdir -p "$OUT"

echo "== 1/2  krl tiny-model $OUT/model"
krl tiny-model "$OUT/model"

echo
echo "== 2/2  krl check: verdicts under Triton's CPU interpreter"
H=tests/unit/evaluator/hacks
F=tests/unit/evaluator/fixtures
checks=(
  "builtin:activation/gelu|evaluator/problems/builtin/activation/gelu.solution.py|correct Triton GELU"
  "builtin:loss/mse_close|evaluator/problems/builtin/loss/mse_close.solution.py|correct Triton MSE (tiny output)"
  "$F/relu.py|$H/try_except_fallback.py|try/except falling back to PyTorch"
  "$F/relu.py|$H/decoy_kernel.py|Triton kernel defined, PyTorch does the work"
  "$F/relu.py|$H/patch_allclose.py|monkey-patches torch.allclose"
  "$F/relu.py|$H/write_inputs.py|writes into its inputs"
  "$F/tiny_output.py|$H/zero_tiny_output.py|all-zero output where the truth is tiny"
  "$F/relu.py|$H/file_write.py|writes a file outside its sandbox"
)
printf '%-46s %-10s %-22s %s\n' "candidate" "status" "hacks" "reward"
for row in "${checks[@]}"; do
  IFS='|' read -r problem candidate label <<<"$row"
  json=$(krl check --problem "$problem" --candidate "$candidate" --device cpu --json)
  python3 - "$json" "$label" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
hacks = ",".join(r["hacks"]) or "-"
print(f"{sys.argv[2]:<46} {r['status']:<10} {hacks:<22} {r['reward']:.3f}")
PY
done
echo
echo "Only the first two may be ok. Full report for any candidate: krl check --problem P --candidate C --device cpu"
echo "Not shown yet: the RL loop (actors + evaluator service + learner); see README.md."
