#!/usr/bin/env bash
# Create the optional benchmark venv (OpenSpiel, RLCard, SciPy/HiGHS), apart from .venv.
# Usage: bash benchmarks/setup_bench_venv.sh [VENV_DIR]   (default: benchmarks/.venv-bench)
# Then:  benchmarks/.venv-bench/bin/python benchmarks/bench_gin.py
#        benchmarks/.venv-bench/bin/python benchmarks/crosscheck_ilp.py
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="${1:-$root/benchmarks/.venv-bench}"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q -e "$root[bench]"
"$venv/bin/python" -c "import pyspiel, rlcard, scipy.optimize; print('benchmark venv ready:', '$venv')"
