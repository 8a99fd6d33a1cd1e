"""How many CPU cores this process may use: its affinity mask, capped by a cgroup CPU quota."""

from __future__ import annotations

import functools
import math
import os
from pathlib import Path

__all__ = ["CGROUP_ROOT", "cgroup_cpu_limit", "usable_cores"]

CGROUP_ROOT = Path("/sys/fs/cgroup")


def cgroup_cpu_limit(proc_cgroup: str, root: Path = CGROUP_ROOT) -> float | None:
    """The CPU quota of a control group, in cores, or None when there is none.

    `proc_cgroup` is the text of /proc/self/cgroup. cgroup v2 keeps the quota in
    `cpu.max` ("QUOTA PERIOD" or "max PERIOD"), v1 in `cpu.cfs_quota_us` (-1 = none) and
    `cpu.cfs_period_us`. Each level of the group's path is read, from the group itself up
    to the root, and the smallest quota wins, as the kernel enforces every level. A
    container usually sees its own group as the root.
    """
    limits: list[float] = []
    for line in proc_cgroup.splitlines():
        parts = line.strip().split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":  # v2: one unified hierarchy
            bases = [root]
        elif "cpu" in controllers.split(","):  # v1: the cpu controller's own tree
            bases = list(dict.fromkeys([root / controllers, root / "cpu", root / "cpu,cpuacct"]))
        else:
            continue
        for base in bases:
            folder = base / path.lstrip("/")
            while True:
                limit = _quota_in(folder)
                if limit is not None:
                    limits.append(limit)
                if folder == base or base not in folder.parents:
                    break
                folder = folder.parent
    return min(limits) if limits else None


def _quota_in(folder: Path) -> float | None:
    """The CPU quota stated in one cgroup folder (v2 or v1), in cores, if any."""
    try:
        quota, period = (folder / "cpu.max").read_text().split()[:2]
        if quota != "max" and int(period) > 0:
            return int(quota) / int(period)
        return None
    except (OSError, ValueError):
        pass
    try:
        quota_us = int((folder / "cpu.cfs_quota_us").read_text())
        period_us = int((folder / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return quota_us / period_us if quota_us > 0 and period_us > 0 else None


@functools.cache
def _cpu_quota() -> int | None:
    """This process's CPU quota in whole cores (rounded up), or None; read once."""
    try:
        text = Path("/proc/self/cgroup").read_text()
    except OSError:
        return None
    limit = cgroup_cpu_limit(text)
    return None if limit is None else max(1, math.ceil(limit))


def usable_cores() -> int:
    """CPU cores this process may use: its CPU affinity, capped by a cgroup CPU quota.

    A container limited to 2 CPUs on a 64-core host sees all 64 in its affinity mask;
    its quota (cgroup v2 `cpu.max`, v1 `cpu.cfs_quota_us`) is what it can really use.
    """
    if hasattr(os, "sched_getaffinity"):
        cores = max(1, len(os.sched_getaffinity(0)))
    else:
        cores = max(1, os.cpu_count() or 1)
    quota = _cpu_quota()
    return cores if quota is None else min(cores, quota)
