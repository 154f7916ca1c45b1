"""Run every benchmark once with its default settings, one after another (``make bench``).

Each benchmark prints its own medians and ratios; none fails on time. The side-by-side
comparisons with OpenSpiel, RLCard and cribbage-scorer run when the ``bench`` extra is
installed (``make bench`` installs it first).
"""

from __future__ import annotations

import subprocess
import sys

BENCHMARKS = (
    "bench_gin",
    "bench_indian_rummy",
    "bench_declaration_rummy",
    "bench_indecision",
    "bench_indian_rummy_playouts",
    "bench_declaration_rummy_playouts",
    "bench_engines_cpu",
    "bench_deal",
    "bench_bots",
    "bench_server",
    "bench_broadcast",
    "bench_page_load",
    "bench_review",
    "bench_record",
)


def main() -> int:
    """Run each benchmark module in its own process; return 1 if any of them crashed."""
    failed = []
    for name in BENCHMARKS:
        print(f"\n=== benchmarks.{name} ===", flush=True)
        done = subprocess.run([sys.executable, "-m", f"benchmarks.{name}"], check=False)
        if done.returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nbenchmarks that crashed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
