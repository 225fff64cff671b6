#!/usr/bin/env python3
"""Reads the thread sanitizer's report files and fails on any report but one kind.

On Linux the thread sanitizer does not see Synchronization.Mutex hand a contended lock over
(its slow path is in the uninstrumented runtime), so two accesses made inside one Mutex's
withLock are reported as a "Swift access race" when the lock was contended. Such a report,
both of whose accesses are inside a withLock (a line calling it, reached from the access
through the project's own frames), is shown as that; any other report fails the run.

Usage: tsan-reports.py REPORT_FILE...
"""
import re
import sys

FRAME = re.compile(r"^#\d+ \S+ (\S+)")
SWIFT_SOURCE = re.compile(r"^(/\S+\.swift)(?::(\d+))?")


def source_line(path, number):
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            for index, line in enumerate(source, start=1):
                if index == number:
                    return line
    except OSError:
        return ""
    return ""


def sections(report):
    """Each access's frames: "Modifying access of Swift variable at 0x… by thread T4:",
    "Previous write of size 8 at 0x… by thread T1:"; not "Location is heap block … at 0x…
    allocated by …:"."""
    found = []
    frames = None
    for line in report.splitlines():
        stripped = line.strip()
        if " at 0x" in stripped and " by " in stripped and stripped.endswith(":") and not stripped.startswith("Location"):
            frames = []
            found.append(frames)
        elif frames is not None and stripped.startswith("#"):
            frames.append(stripped)
        elif not stripped:
            frames = None
    return found


def lock_site(frames):
    """Where the access is inside a withLock: walking out from the access through the
    project's own frames (until the first frame of a library), a line that calls withLock."""
    for frame in frames:
        match = FRAME.match(frame)
        source = match and SWIFT_SOURCE.match(match.group(1))
        if not source:
            return None
        if source.group(2) and "withLock" in source_line(source.group(1), int(source.group(2))):
            return (source.group(1), int(source.group(2)))
    return None


def mutex_handover(report):
    """The two accesses' withLock lines when the report is the sanitizer's blind spot."""
    if "WARNING: ThreadSanitizer: Swift access race" not in report:
        return None
    accesses = sections(report)
    sites = [lock_site(frames) for frames in accesses]
    return sites if len(sites) == 2 and all(sites) else None


def main(paths):
    handovers, others = [], []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read()
        for report in text.split("==================")[1:]:
            if "WARNING: ThreadSanitizer" not in report:
                continue
            sites = mutex_handover(report)
            if sites:
                handovers.append(sites)
            else:
                others.append(report)
    for sites in handovers:
        sites = ", ".join(f"{path}:{number}" for path, number in sites)
        print(f"not a race: two accesses inside Mutex.withLock ({sites}), a contended hand-over the sanitizer cannot see")
    for report in others:
        print(report.strip(), file=sys.stderr)
    if others:
        print(f"the thread sanitizer reported {len(others)} problem(s) (above)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
