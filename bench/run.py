"""Run every benchmark in this folder (bench_*.py) and print its figures.

Each bench_*.py has a ``main()`` that prints its own table (bench_timing.py: the datasheet timing
budget of the scan loop, polls per second per seat and tap latency for table-4 and table-6).  Speed
targets live here, never as timing assertions in tests.  ``python bench/run.py rules`` runs only bench_rules.py.
"""
import importlib.util
import pathlib
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent


def main(argv):
    wanted = set(argv)
    for path in sorted(HERE.glob("bench_*.py")):
        name = path.stem[len("bench_"):]
        if wanted and name not in wanted:
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"== {name} ==", flush=True)
        started = time.perf_counter()
        module.main()
        print(f"   ({time.perf_counter() - started:.1f} s)\n", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
