#!/usr/bin/env bash
# `make demo`: the whole RL loop, for real, on a CPU-only machine, and a policy that learns
# (about 10-12 minutes on 2 cores).
#   1. krl check: the hardened evaluator's verdicts on a correct Triton kernel and on
#      reward hacks, under Triton's CPU interpreter
#   2. the start policy's data: five answers to ReLU that the evaluator judges
#      differently (scripts/uncertain_sft.py), its feedback on each recorded by krl check
#   3. krl run configs/demo-cpu.yaml: a tiny model, an SFT cold start on that mix (its
#      answers are then a gamble), then RL with a vLLM actor, the evaluator service and
#      the DeepSpeed learner as separate processes; midway the evaluator worker is killed
#      and `krl run` brings it back. At the end: the reward of the first steps against
#      the last.
# What this proves and what it does not: README.md, "The demo". Timings on CPU are
# Triton-interpreter timings, not GPU speedups.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=configs/demo-cpu.yaml
RUN=${KRL_DEMO_DIR:-runs/demo/run}
KILL_AT_STEP=${KRL_DEMO_KILL_AT_STEP:-3}   # 0: kill nothing

echo "== 1/3  krl check: verdicts under Triton's CPU interpreter"
H=tests/unit/evaluator/hacks
F=tests/unit/evaluator/fixtures
checks=(
  "builtin:activation/gelu|evaluator/problems/builtin/activation/gelu.solution.py|correct Triton GELU"
  "$F/relu.py|$H/decoy_kernel.py|Triton kernel defined, PyTorch does the work"
  "$F/relu.py|$H/patch_allclose.py|monkey-patches torch.allclose"
  "$F/tiny_output.py|$H/zero_tiny_output.py|all-zero output where the truth is tiny"
)
printf '%-46s %-10s %-22s %s\n' "candidate" "status" "hacks" "reward"
for row in "${checks[@]}"; do
  IFS='|' read -r problem candidate label <<<"$row"
  json=$(krl check --problem "$problem" --candidate "$candidate" --device cpu --json)
  python - "$json" "$label" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
hacks = ",".join(r["hacks"]) or "-"
print(f"{sys.argv[2]:<46} {r['status']:<10} {hacks:<22} {r['reward']:.3f}")
PY
done
echo "Only the first may be ok."

echo
DATA=$RUN-data
echo "== 2/3  the start policy's data: five answers to ReLU, the evaluator's feedback on each"
rm -rf "$RUN" "$DATA"
python scripts/uncertain_sft.py "$DATA/sft.jsonl" --problems builtin:activation/relu \
  --variants-dir "$DATA/variants" --record "$CONFIG" --copies 4

echo
echo "== 3/3  krl run $CONFIG (run directory $RUN, started afresh)"
# Midway, kill the evaluator worker (SIGKILL, as a crash would) to show the restart.
python - "$RUN" "$KILL_AT_STEP" <<'PY' &
import json, os, signal, sys, time
run, at = sys.argv[1], int(sys.argv[2])
def read(path):
    try:
        return json.load(open(os.path.join(run, path)))
    except (OSError, ValueError):
        return {}
while at:
    if read("learner/progress.json").get("learner_steps", 0) >= at:
        pid = read("supervisor.json").get("processes", {}).get("evaluator-0", {}).get("pid")
        if pid:
            print(f"[demo] killing evaluator-0 (pid {pid}) after learner step {at}", flush=True)
            os.kill(pid, signal.SIGKILL)
        break
    time.sleep(1)
PY
killer=$!
status=0
krl run "$CONFIG" "run_dir=$RUN" "bootstrap.sft.data=$DATA/sft.jsonl" || status=$?
kill "$killer" 2>/dev/null || true

echo
python - "$RUN" "$status" <<'PY'
import json, statistics, sys
run, status = sys.argv[1], int(sys.argv[2])
s = json.load(open(f"{run}/summary.json"))
steps = [h for h in s["history"] if h.get("reward") is not None]
rewards = [h["reward"] for h in steps]
if status != 0 or len(rewards) < 6:
    print(f"demo: NOT OK (krl run exit {status}, rewards {rewards}); see {run}/logs")
    sys.exit(1)
first, last = statistics.mean(rewards[:3]), statistics.mean(rewards[-3:])
correct = [h.get("correct") or 0.0 for h in steps]
print(f"demo: OK: {len(rewards)} learner steps; mean reward of steps 1-3 {first:.3f}, of the "
      f"last 3 {last:.3f} ({last - first:+.3f}); share of correct turns "
      f"{correct[0]:.2f} at step 1, {correct[-1]:.2f} at the last; restarts {s['restarts']}")
print("(reward 0.5 for a correct answer: timing and profiling are off, so no speed or "
      "coverage term; 0 otherwise. One run, no control: benchmarks/reports/learning.md has "
      "the control and the seeds)")
PY
