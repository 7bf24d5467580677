#!/usr/bin/env python3
"""TUI benchmark (issue 4): the release `cloudnotes` binary on a pseudo-terminal, as a user runs it.

Prints, for the store in --data-dir:
  - launch to the first full screen: from spawning the process until the terminal has received
    the first list row's title and the status bar's key hints (median and p90 of --runs launches);
  - keystroke to repaint while searching: `/` then queries typed one character at a time; for
    each key, the time from writing it to the last byte of the screen update it caused (the
    update ends when the output has been quiet for --quiet ms; that wait is not counted);
  - the same for Esc after each query (back to the whole list, around the selected result) and
    for `j` (moving down the list);
  - peak RSS of the app (VmHWM) after all of that;
  - beside it, in the same run, `less` (the peer the issue names) on the same list as a file
    (`cloudnotes list` of every note): launch to its first full screen, the same queries typed
    into its incremental search (`--incsearch`, each character searches and repaints), `j`, and
    its peak RSS (skipped when `less` is not installed).

The app runs with a private HOME and XDG directories and a config with no cloud folder (local
only), so sync work does not mix into the figures; `--sync-folder DIR` runs it bound to a cloud
folder instead (e.g. one the store has never been published to: the engine publishes in the
background while keys are measured).
"""
import argparse
import json
import os
import platform
import select
import shutil
import statistics
import struct
import subprocess
import tempfile
import time
import fcntl
import termios

QUERIES = ["meeting", "project", "budget review", "kernel latency", "ångström", "zzyzx", "東京", "会議"]


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class App:
    """The binary on a pty of the given size."""

    def __init__(self, command, env, width, height):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self.master = master
        self.start = time.perf_counter()
        self.process = subprocess.Popen(
            command, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.output = bytearray()

    def read(self, timeout):
        """Reads what arrives within `timeout` seconds; returns (bytes, time of the last read)."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if not ready:
            return b"", None
        try:
            data = os.read(self.master, 1 << 20)
        except OSError:
            return b"", None
        return data, time.perf_counter()

    def wait_for(self, needles, timeout=30):
        """Reads until every needle has arrived; returns the time the last byte came."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            data, at = self.read(0.5)
            if data:
                self.output += data
                if all(n in self.output for n in needles):
                    return at
            elif self.process.poll() is not None:
                break
        raise SystemExit(f"the app never showed {needles!r}; last output: {bytes(self.output[-400:])!r}")

    def settle(self, quiet):
        """Reads until the output has been quiet for `quiet` seconds; the time of the last byte."""
        last = None
        while True:
            data, at = self.read(quiet)
            if not data:
                return last
            self.output += data
            last = at

    def key(self, text, quiet):
        """Writes one key; the ms until the last byte of the update it caused (None: no update)."""
        self.output.clear()
        sent = time.perf_counter()
        os.write(self.master, text.encode())
        last = self.settle(quiet)
        return None if last is None else (last - sent) * 1000

    def peak_rss_mb(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def quit(self):
        os.write(self.master, b"q")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self.master)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cloudnotes", required=True, help="the release binary")
    parser.add_argument("--data-dir", required=True, help="a populated store (the store benchmark makes one)")
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--width", type=int, default=100)
    parser.add_argument("--height", type=int, default=30)
    parser.add_argument("--quiet", type=float, default=80, help="ms of silence that ends an update")
    parser.add_argument("--sync-folder", help="run bound to this cloud folder instead of local only")
    parser.add_argument("--verbose", action="store_true", help="print each key's latency")
    args = parser.parse_args()
    quiet = args.quiet / 1000

    home = tempfile.mkdtemp(prefix="cloudnotes-tui-bench-")
    os.makedirs(f"{home}/config/cloudnotes")
    with open(f"{home}/config/cloudnotes/config.json", "w") as config:
        json.dump({"cloudFolder": args.sync_folder}, config)
    env = {
        "HOME": home, "XDG_CONFIG_HOME": f"{home}/config", "XDG_DATA_HOME": f"{home}/data",
        "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin",
    }
    listed = subprocess.run(
        [args.cloudnotes, "list", "--limit", "1", "--json", "--data-dir", args.data_dir],
        env=env, capture_output=True, check=True).stdout
    first = json.loads(listed)[0]["title"]
    everything = subprocess.run(
        [args.cloudnotes, "list", "--limit", "100000000", "--data-dir", args.data_dir],
        env=env, capture_output=True, check=True).stdout
    count = everything.count(b"\n")
    marker = first[:8].encode()
    command = [args.cloudnotes, "--data-dir", args.data_dir]

    print(f"== TUI, store {args.data_dir} (~{count} list lines), {args.width}x{args.height} pty, "
          f"{'cloud folder ' + args.sync_folder if args.sync_folder else 'local only'} ==")
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")

    launches = []
    for run in range(args.runs):
        app = App(command, env, args.width, args.height)
        at = app.wait_for([marker, b"q quit"])
        launches.append((at - app.start) * 1000)
        app.settle(quiet)
        app.quit()
    print(f"launch to first full screen ({args.runs} launches): median {statistics.median(launches):.1f} ms, "
          f"p90 {percentile(launches, 90):.1f} ms, min {min(launches):.1f} ms (target: under 100 ms)")

    app = App(command, env, args.width, args.height)
    app.wait_for([marker, b"q quit"])
    app.settle(quiet)
    rss_start = app.peak_rss_mb()
    typing = []
    escapes = []
    for query in QUERIES:
        app.key("/", quiet)
        for index, character in enumerate(query):
            latency = app.key(character, quiet)
            if latency is not None:
                typing.append(latency)
            if args.verbose:
                print(f"  {query[:index + 1]!r}: {latency if latency is None else round(latency, 1)} ms")
        leaving = app.key("\x1b", quiet)  # Esc: clear the search, back to the list around the selected note
        if leaving is not None:
            escapes.append(leaving)
    moving = [m for m in (app.key("j", quiet) for _ in range(60)) if m is not None]
    rss_end = app.peak_rss_mb()
    app.quit()
    print(f"keystroke to repaint while searching ({len(typing)} keys over {len(QUERIES)} queries typed "
          f"character by character): median {statistics.median(typing):.1f} ms, "
          f"p99 {percentile(typing, 99):.1f} ms, max {max(typing):.1f} ms (targets: median under 16, p99 under 50)")
    if escapes:
        print(f"Esc (leave the search, the list around the selected result), {len(escapes)} keys: "
              f"median {statistics.median(escapes):.1f} ms, max {max(escapes):.1f} ms")
    print(f"j (move down the list), {len(moving)} keys: median {statistics.median(moving):.1f} ms, "
          f"p99 {percentile(moving, 99):.1f} ms")
    print(f"peak RSS: {rss_start:.0f} MB after the first screen, {rss_end:.0f} MB after searching (target: under 120 MB)")
    less_beside(everything, env, args, quiet, home)


def less_beside(listing, env, args, quiet, home):
    """`less` on the same list as a file, measured the way the app is."""
    less = shutil.which("less", path=env["PATH"])
    if less is None:
        print("less: not installed, no peer figures")
        return
    path = f"{home}/list.txt"
    with open(path, "wb") as file:
        file.write(listing)
    lines = listing.split(b"\n")
    # The first full screen: the first line and the last one that fits (-S: a line per row).
    needles = [lines[0][:8], lines[min(len(lines), args.height - 1) - 1][:8]]
    command = [less, "-S", "--incsearch", path]
    launches = []
    for run in range(args.runs):
        viewer = App(command, env, args.width, args.height)
        at = viewer.wait_for(needles)
        launches.append((at - viewer.start) * 1000)
        viewer.settle(quiet)
        viewer.quit()
    viewer = App(command, env, args.width, args.height)
    viewer.wait_for(needles)
    viewer.settle(quiet)
    typing = []
    for query in QUERIES:
        viewer.key("/", quiet)
        typing += [m for m in (viewer.key(character, quiet) for character in query) if m is not None]
        viewer.key("\r", quiet)  # run the search; its prompt closes
        viewer.key("g", quiet)  # back to the top for the next query
    moving = [m for m in (viewer.key("j", quiet) for _ in range(60)) if m is not None]
    rss = viewer.peak_rss_mb()
    viewer.quit()
    print(f"less (peer, the same {len(lines) - 1} lines as a file): launch to first full screen median "
          f"{statistics.median(launches):.1f} ms; keystroke while searching (--incsearch, {len(typing)} keys) "
          f"median {statistics.median(typing):.1f} ms, p99 {percentile(typing, 99):.1f} ms; "
          f"j median {statistics.median(moving):.1f} ms; peak RSS {rss:.0f} MB")


if __name__ == "__main__":
    main()
