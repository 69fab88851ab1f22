#!/usr/bin/env bash
# Run the project's timing-dependent test files several times under artificial CPU load and count, per
# test, how often it failed: a test whose outcome depends on the machine's speed shows up here, where a
# single quiet run would pass it. CI runs on a loaded 2-core machine, so every count must be 0.
#
#   benchmarks/stress_tests.sh [ROUNDS] [BUSY] [TEST_PATH ...]
#     ROUNDS  how many times to run the files (default 5)
#     BUSY    busy-loop python processes at normal priority beside pytest (default 4: 2 per core here)
#     paths   default: every file with a timeout, a hang, a sleep, a deadline or a clock in it (and the
#             property tests that ran under Hypothesis' 200 ms deadline), except
#             tests/unit/scale/test_ray_engine.py (a local Ray cluster generating 3 x 240 answers with an HF
#             model on CPU: more than 10 minutes a round under this load, where it waits, not races)
# Environment: PYTHON (default the checkout's .venv/bin/python, else python3), OUT (log folder, default a temp dir).
# Prints one line per round (passed/failed/seconds) and then the failure count of each failing test.
set -uo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${1:-5}
BUSY=${2:-4}
shift $(( $# > 2 ? 2 : $# ))
FILES=("$@")
if [ ${#FILES[@]} -eq 0 ]; then
  FILES=(
    tests/unit/targets/test_runner.py
    tests/unit/targets/test_local_timeouts.py
    tests/unit/targets/test_http_targets.py
    tests/unit/targets/test_store.py
    tests/unit/targets/test_fake_server.py
    tests/unit/judge/test_linear_time.py
    tests/unit/sim/test_sim_text.py
    tests/unit/judge/test_grounding.py
    tests/unit/cases/test_e2_partners.py
    tests/unit/targets/test_registry.py
    tests/unit/targets/test_shapes.py
    tests/unit/targets/test_guards.py
    tests/unit/report/test_report_extremes.py
    tests/reliability/test_endpoint_faults.py
    tests/reliability/test_process_deaths.py
    tests/reliability/test_interruptions.py
    tests/reliability/test_interrupt_output.py
    tests/reliability/test_sigterm.py
    tests/reliability/test_counters.py
    tests/reliability/test_dead_endpoint.py
    tests/reliability/test_hostile_replies.py
    tests/reliability/test_endpoint_shapes.py
    tests/reliability/test_security.py
  )
fi
present=()
for f in "${FILES[@]}"; do
  if [ -e "$f" ]; then present+=("$f"); else echo "stress: no $f here, skipped"; fi
done
FILES=("${present[@]}")
PY=${PYTHON:-$PWD/.venv/bin/python}
[ -x "$PY" ] || PY=python3
OUT=${OUT:-$(mktemp -d /tmp/ijr-stress.XXXXXX)}
mkdir -p "$OUT"
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}"

busy_pids=()
stop_load() { for p in "${busy_pids[@]}"; do kill "$p" 2>/dev/null; done; wait "${busy_pids[@]}" 2>/dev/null; }
trap stop_load EXIT
for _ in $(seq "$BUSY"); do
  "$PY" -c "while True: pass" &
  busy_pids+=($!)
done

echo "stress: $ROUNDS rounds, $BUSY busy loops, $(nproc) cores, files: ${FILES[*]}"
for r in $(seq "$ROUNDS"); do
  t0=$(date +%s)
  # pytest as a terminal starts it: a script run in the background (nohup, &) passes SIGINT on *ignored*,
  # and the Ctrl-C tests would then measure that, not the code (it made every one of them fail here).
  "$PY" -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.executable, [sys.executable, "-m", "pytest", *sys.argv[1:]])' \
    "${FILES[@]}" -n 2 -p no:randomly -p no:cacheprovider -q -rf \
    --junitxml="$OUT/round$r.xml" >"$OUT/round$r.log" 2>&1
  rc=$?
  summary=$(tail -n 1 "$OUT/round$r.log")
  echo "round $r: exit $rc, $(( $(date +%s) - t0 )) s: $summary"
done
stop_load
trap - EXIT

# Per-test failure counts over all rounds, from the junit files (a failure or an error counts).
"$PY" - "$OUT" "$ROUNDS" <<'EOF'
import sys, xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

out, rounds = Path(sys.argv[1]), int(sys.argv[2])
failed: Counter[str] = Counter()
total = 0
for f in sorted(out.glob("round*.xml")):
    for case in ET.parse(f).iter("testcase"):
        total += 1
        if case.find("failure") is not None or case.find("error") is not None:
            failed[f"{case.get('classname')}::{case.get('name')}"] += 1
print(f"tests run over {rounds} rounds: {total}; failing tests: {len(failed)}")
for name, n in sorted(failed.items()):
    print(f"  {n}/{rounds}  {name}")
print(f"logs: {out}")
EOF
