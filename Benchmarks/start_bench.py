#!/usr/bin/env python3
"""Start-time benchmark (issue 27): how long a `cloudnotes` process takes from spawn to exit.

Prints, beside its peers in the same run (`/bin/true`, `sqlite3 --version`, `rg --version` when
installed), the median and p90 of --runs runs (wall clock, and the process's own CPU time, user +
system, which a loaded machine disturbs less) of:
  - `cloudnotes --version` (the floor every command starts from);
  - `cloudnotes --help`-free simple commands against a store when --data-dir is given:
    `list --limit 1` and `search WORD --limit 10` (open the store, one query, print);
and the machine's cores and load average before and after. Each run is a fresh process
(posix_spawn, stdout and stderr to /dev/null); the first --warmup runs are not counted. Every
command's runs are interleaved with its peers' (one of each in turn), so a burst of load on the
machine falls on all of them alike. `--cloudnotes` may be given more than once, as LABEL=PATH
(e.g. a build before and after a change): each binary's commands are timed in the same rounds.

    python3 Benchmarks/start_bench.py --cloudnotes .build/dist/cloudnotes \\
        [--data-dir /tmp/cloudnotes-bench/10000/store] [--runs 51]
"""
import argparse
import os
import platform
import shutil
import statistics
import tempfile
import time


def run_once(argv, env):
    devnull = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, devnull, 0), (os.POSIX_SPAWN_DUP2, devnull, 1),
               (os.POSIX_SPAWN_DUP2, devnull, 2)]
    start = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
    _, status, usage = os.wait4(pid, 0)
    elapsed = (time.perf_counter() - start) * 1000
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} exited with {os.waitstatus_to_exitcode(status)}")
    return elapsed, (usage.ru_utime + usage.ru_stime) * 1000


def p90(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cloudnotes", required=True, action="append",
                        help="the binary to time, or LABEL=PATH (more than once to compare builds)")
    parser.add_argument("--data-dir", help="a populated store (the store benchmark makes one)")
    parser.add_argument("--search", default="project", help="the word `search` looks for")
    parser.add_argument("--runs", type=int, default=51)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()

    home = tempfile.mkdtemp(prefix="cloudnotes-start-bench-")
    env = {"HOME": home, "XDG_CONFIG_HOME": f"{home}/config", "XDG_DATA_HOME": f"{home}/data",
           "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"}
    rows = [("/bin/true", ["/bin/true"])]
    for peer in ("sqlite3", "rg"):
        path = shutil.which(peer)
        if path:
            rows.append((f"{peer} --version", [path, "--version"]))
    for given in args.cloudnotes:
        label, _, path = given.rpartition("=")
        binary = os.path.abspath(path)
        name = f"cloudnotes{' (' + label + ')' if label else ''}"
        print(f"{name}: {binary} ({os.path.getsize(binary) // 1_000_000} MB)")
        rows.append((f"{name} --version", [binary, "--version"]))
        if args.data_dir:
            rows.append((f"{name} list --limit 1", [binary, "list", "--limit", "1", "--data-dir", args.data_dir]))
            rows.append((f"{name} search {args.search} --limit 10",
                         [binary, "search", args.search, "--limit", "10", "--data-dir", args.data_dir]))

    print(f"== start time: median and p90 of {args.runs} runs each, interleaved ==")
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    for _ in range(args.warmup):
        for _, argv in rows:
            run_once(argv, env)
    walls = {label: [] for label, _ in rows}
    cpus = {label: [] for label, _ in rows}
    for _ in range(args.runs):
        for label, argv in rows:
            wall, cpu = run_once(argv, env)
            walls[label].append(wall)
            cpus[label].append(cpu)
    floor = statistics.median(walls["/bin/true"])
    width = max(len(label) for label, _ in rows)
    for label, _ in rows:
        wall = statistics.median(walls[label])
        print(f"  {label:<{width}}  wall median {wall:7.2f} ms, p90 {p90(walls[label]):7.2f} ms "
              f"({wall / floor:5.1f}x /bin/true); CPU median {statistics.median(cpus[label]):6.1f} ms")
    print(f"load after: {os.getloadavg()[0]:.2f}")
    shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    main()
