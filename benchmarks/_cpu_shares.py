"""Which processes of the machine used its CPU during a measured run (Linux ``/proc``).

On a 2-core machine the Spark benchmarks share the cores between Spark's
JVMs, the Python workers, the broker and anything else running. Knowing how
busy the cores were, and who used them, tells a slow client from a full
machine:

    before = snapshot()
    ...  # the measured run
    shares = cpu_shares(before, snapshot())
    # {"jvm": 1.2, "jvm_jit": 0.5, "jvm_gc": 0.1, "broker": 0.4, "python": 0.9, "other": 0.1,
    #  "machine": 2.7, "cores": 2}

``machine`` is all CPU time the kernel counted (``/proc/stat``), in seconds;
the kinds are summed over the processes alive at the end of the run, so a
process that ended during it is only in ``machine`` (its share shows up as
the difference). ``jvm_jit`` and ``jvm_gc`` are the parts of ``jvm`` spent
in the JVMs' JIT compiler threads and garbage collector threads: on a small
machine the compilers' share stays large for many queries after start-up.
"""

from __future__ import annotations

import os
from typing import Dict, Tuple

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

#: A process's kind, its CPU seconds, and (for JVMs) those of its JIT compiler and GC threads.
Process = Tuple[str, float, float, float]
Snapshot = Tuple[float, Dict[int, Process]]
#: Thread names (``/proc/<pid>/task/<tid>/comm``) of HotSpot's compiler and garbage collector threads.
_JIT_THREADS = ("C1 CompilerThre", "C2 CompilerThre")
_GC_THREADS = ("GC Thread", "G1 ", "VM Periodic", "Parallel GC")


def _kind(cmdline: str) -> str:
    if "java" in cmdline:
        return "jvm"
    if "tansu" in cmdline:
        return "broker"
    if "python" in cmdline or "pypy" in cmdline:
        return "python"
    return "other"


def _seconds(stat: str) -> float:
    # Fields after the command name (which may hold spaces), from field 3 on: utime is 14th, stime 15th.
    rest = stat[stat.rindex(")") + 2:].split()
    return (int(rest[11]) + int(rest[12])) / _TICK


def _jvm_threads(pid: str) -> Tuple[float, float]:
    """CPU seconds of a JVM's JIT compiler threads and of its garbage collector threads."""
    jit = gc = 0.0
    try:
        tids = os.listdir("/proc/%s/task" % pid)
    except OSError:
        return jit, gc
    for tid in tids:
        try:
            with open("/proc/%s/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
        except OSError:
            continue
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        if name.startswith(_JIT_THREADS):
            jit += _seconds(stat)
        elif name.startswith(_GC_THREADS):
            gc += _seconds(stat)
    return jit, gc


def _machine_seconds() -> float:
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    # user nice system idle iowait irq softirq steal ...: busy is all but idle and iowait.
    ticks = [int(x) for x in fields]
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / _TICK


def snapshot() -> Snapshot:
    """The machine's busy CPU seconds and ``{pid: (kind, CPU seconds, JIT seconds, GC seconds)}`` of
    every process now."""
    processes: Dict[int, Process] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue  # ended meanwhile
        kind = _kind(cmdline)
        jit, gc = _jvm_threads(name) if kind == "jvm" else (0.0, 0.0)
        processes[int(name)] = (kind, _seconds(stat), jit, gc)
    return _machine_seconds(), processes


def cpu_shares(before: Snapshot, after: Snapshot) -> Dict[str, float]:
    """CPU seconds used between two snapshots: per kind of process, the whole machine, and its core count."""
    shares = {"jvm": 0.0, "jvm_jit": 0.0, "jvm_gc": 0.0, "broker": 0.0, "python": 0.0, "other": 0.0}
    for pid, (kind, seconds, jit, gc) in after[1].items():
        _, earlier, jit_earlier, gc_earlier = before[1].get(pid, (kind, 0.0, 0.0, 0.0))
        shares[kind] += seconds - earlier
        shares["jvm_jit"] += jit - jit_earlier
        shares["jvm_gc"] += gc - gc_earlier
    shares["machine"] = after[0] - before[0]
    shares["cores"] = float(os.cpu_count() or 1)
    return shares
