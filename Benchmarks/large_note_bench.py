#!/usr/bin/env python3
"""Large-note benchmark (issue 22 item 2): memory and time to open, edit and save a note of
--sizes megabytes (default 10, 20, 100) with the release `cloudnotes` binary, beside vim on the
same text, as a user runs them (a pseudo-terminal, keys, the screen).

Per size, medians of --runs runs:
  - `cloudnotes add --file`: wall time and peak RSS (ru_maxrss of the process);
  - the app: Enter on the note to the screen showing it (an editable note: its first line; over
    the editor's 16 MB: the read-only notice), then, for an editable note, 20 characters typed
    at its end until `show` prints them (the autosave); peak RSS (VmHWM) of the app;
  - `e` in the app with a scripted $EDITOR that appends a line: from `e` until `show` has the
    line (the app's save of the whole text); the app's peak RSS;
  - vim (`-u NONE -N -n`, no swap file): start to its first screen, then `Go` + 20 characters +
    `:wq` until it exits; peak RSS (ru_maxrss).
RSS is also given as a multiple of the note's size. The notes are the project's kind of text
(lines of words, headings, lists, links), made from a seeded generator: the same bytes each run.
"""
import argparse
import json
import os
import platform
import random
import select
import statistics
import struct
import subprocess
import tempfile
import time
import fcntl
import termios

# The note's last line: on screen only once the editor (or vim) shows the end of the text.
END_LINE = "The end of the large note."
WORDS = ("meeting project budget review kernel latency notes draft plan ideas travel kyoto release "
         "sync folder device merge conflict editor search index terminal cloud replica").split()


def note_text(megabytes, seed=20261128):
    """A title line and a body of about `megabytes` MB of note-like lines, the same for a seed."""
    rng = random.Random(seed)
    target = int(megabytes * 1_000_000)
    lines = ["Large note"]
    size = len(lines[0]) + 1
    n = 0
    while size < target:
        n += 1
        kind = n % 20
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))
        if kind == 0:
            line = f"## Section {n // 20}"
        elif kind in (5, 6, 7):
            line = f"- [ ] {words}"
        elif kind == 11:
            line = f"See [[Note {rng.randint(1, 500)}]] and {words}."
        else:
            line = words.capitalize() + "."
        lines.append(line)
        size += len(line) + 1
    lines.append(END_LINE)
    return "\n".join(lines) + "\n"


class Pty:
    """A program on a pseudo-terminal."""

    def __init__(self, argv, env, width=100, height=30):
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))
        self.master = master
        self.start = time.perf_counter()
        self.process = subprocess.Popen(
            argv, stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True, close_fds=True)
        os.close(slave)
        self.output = bytearray()

    def wait_for(self, needle, timeout=600):
        """Reads until `needle` arrived (or the program exited); the time it came."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(self.master, 1 << 20)
                except OSError:
                    data = b""
                if data:
                    self.output += data
                    if needle in self.output:
                        return time.perf_counter()
                    continue
            if self.process.poll() is not None:
                break
        raise SystemExit(f"never saw {needle!r}; last output: {bytes(self.output[-300:])!r}")

    def drain(self, quiet=0.3):
        while True:
            ready, _, _ = select.select([self.master], [], [], quiet)
            if not ready:
                return
            try:
                if not os.read(self.master, 1 << 20):
                    return
            except OSError:
                return

    def send(self, text):
        self.output.clear()
        os.write(self.master, text.encode() if isinstance(text, str) else text)

    def peak_rss_mb(self):
        try:
            with open(f"/proc/{self.process.pid}/status") as status:
                for line in status:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1]) / 1024
        except FileNotFoundError:
            pass
        return float("nan")

    def wait_exit(self, timeout=600):
        """Waits for the program; its peak RSS in MB from wait4."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            pid, status, usage = os.wait4(self.process.pid, os.WNOHANG)
            if pid:
                self.process.returncode = status
                os.close(self.master)
                return usage.ru_maxrss / 1024
            self.drain(0.05)
        self.process.kill()
        raise SystemExit("the program did not exit")


def poll_show(binary, data_dir, env, needle, timeout=600):
    """Polls `cloudnotes show` until its output holds `needle`; the time it did."""
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        shown = subprocess.run([binary, "show", "Large note", "--data-dir", data_dir], env=env,
                               capture_output=True).stdout
        if needle in shown:
            return time.perf_counter()
        time.sleep(0.1)
    raise SystemExit(f"show never had {needle!r}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cloudnotes", required=True, help="the release binary")
    parser.add_argument("--sizes", default="10,20,100", help="note sizes in MB, comma-separated")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--vim", default="/usr/bin/vim")
    args = parser.parse_args()
    binary = os.path.abspath(args.cloudnotes)

    print("== large notes: open, edit, save (the app beside vim) ==")
    print(f"machine: {platform.node()}, {os.cpu_count()} cores, {platform.machine()}, "
          f"load {os.getloadavg()[0]:.2f}; binary {binary}; {args.runs} runs per size")
    medians = []
    for megabytes in [float(s) for s in args.sizes.split(",")]:
        text = note_text(megabytes)
        size_mb = len(text.encode()) / 1_048_576
        rows = {"add": [], "add_rss": [], "open": [], "type_save": [], "app_rss": [], "e_save": [],
                "e_rss": [], "vim_open": [], "vim_save": [], "vim_rss": []}
        editable = len(text.encode()) <= 16 << 20
        for run in range(args.runs):
            home = tempfile.mkdtemp(prefix="cloudnotes-large-bench-")
            os.makedirs(f"{home}/config/cloudnotes")
            with open(f"{home}/config/cloudnotes/config.json", "w") as config:
                json.dump({}, config)
            appended = f"{home}/append.sh"
            with open(appended, "w") as script:
                script.write('#!/bin/sh\nprintf "appended by the editor\\n" >> "$1"\n')
            os.chmod(appended, 0o755)
            env = {"HOME": home, "XDG_CONFIG_HOME": f"{home}/config", "XDG_DATA_HOME": f"{home}/data",
                   "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin",
                   "EDITOR": appended, "VISUAL": appended}
            data_dir = f"{home}/notes"
            source = f"{home}/large.md"
            with open(source, "w") as out:
                out.write(text)

            # add --file, in a pty-less child whose peak is read with wait4.
            start = time.perf_counter()
            child = subprocess.Popen([binary, "add", "--file", source, "--data-dir", data_dir], env=env,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(child.pid, 0)
            rows["add"].append(time.perf_counter() - start)
            rows["add_rss"].append(usage.ru_maxrss / 1024)
            if status != 0:
                raise SystemExit(f"add failed: {child.stderr.read().decode(errors='replace')}")

            # The app: open the note, then type at its end (editable) until the autosave lands.
            app = Pty([binary, "--data-dir", data_dir], env)
            app.wait_for(b"Large note")
            app.drain()
            sent = time.perf_counter()
            # Enter, then Ctrl-End at once (held while the note loads, then replayed): open is
            # until the note's last line is on screen.
            app.send("\r")
            app.send(b"\x1b[1;5F")
            shown = app.wait_for(END_LINE.encode())
            rows["open"].append(shown - sent)
            if editable:
                app.drain()
                typed = "typed at the end xyzq"
                for character in typed:
                    app.send(character)
                sent = time.perf_counter()
                rows["type_save"].append(poll_show(binary, data_dir, env, typed.encode()) - sent)
                app.send("\x1b")
                app.drain()
            else:
                app.send("\x1b")
                app.drain()
            rows["app_rss"].append(app.peak_rss_mb())
            app.send("q")
            app.wait_exit()

            # `e`: the whole text through $EDITOR and back into the store.
            app = Pty([binary, "--data-dir", data_dir], env)
            app.wait_for(b"Large note")
            app.drain()
            sent = time.perf_counter()
            app.send("e")
            rows["e_save"].append(poll_show(binary, data_dir, env, b"appended by the editor") - sent)
            app.drain(1.0)
            rows["e_rss"].append(app.peak_rss_mb())
            app.send("q")
            app.wait_exit()

            # vim on the same text.
            target = f"{home}/vim.md"
            with open(target, "w") as out:
                out.write(text)
            vim = Pty([args.vim, "-u", "NONE", "-N", "-n", target], env)
            vim.wait_for(b"Large note")
            rows["vim_open"].append(time.perf_counter() - vim.start)
            vim.drain()
            sent = time.perf_counter()
            vim.send("Gotyped at the end xyzq\x1b:wq\r")
            rows["vim_rss"].append(vim.wait_exit())
            rows["vim_save"].append(time.perf_counter() - sent)
            subprocess.run(["rm", "-rf", home])

        def med(key):
            return statistics.median(rows[key]) if rows[key] else float("nan")

        print(f"-- {size_mb:.1f} MB note ({text.count(chr(10))} lines){'' if editable else ', over the 16 MB the editor edits: opens read-only'}")
        print(f"add --file: {med('add'):.2f} s, peak RSS {med('add_rss'):.0f} MB ({med('add_rss') / size_mb:.1f}x the note)")
        typing = f"; 20 characters typed at the end saved after {med('type_save'):.2f} s" if editable else ""
        print(f"app: open {med('open'):.2f} s{typing}; peak RSS {med('app_rss'):.0f} MB "
              f"({med('app_rss') / size_mb:.1f}x)")
        print(f"app, e ($EDITOR appends a line): saved after {med('e_save'):.2f} s; peak RSS {med('e_rss'):.0f} MB "
              f"({med('e_rss') / size_mb:.1f}x)")
        print(f"vim: open {med('vim_open'):.2f} s, Go + 20 characters + :wq {med('vim_save'):.2f} s; "
              f"peak RSS {med('vim_rss'):.0f} MB ({med('vim_rss') / size_mb:.1f}x)")
        medians.append((size_mb, {key: med(key) for key in rows}))
    if len(medians) > 1:
        (small, a), (large, b) = medians[0], medians[-1]
        growth = {key: (b[key] - a[key]) / (large - small) for key in ("add_rss", "app_rss", "e_rss", "vim_rss")}
        print(f"-- peak RSS growth per MB of note, {small:.0f} MB to {large:.0f} MB: add {growth['add_rss']:.1f} MB, "
              f"app open {growth['app_rss']:.1f} MB, app e {growth['e_rss']:.1f} MB, vim {growth['vim_rss']:.1f} MB")


if __name__ == "__main__":
    main()
