#!/usr/bin/env python3
"""Reads the thread sanitizer's report files and fails on any report but one kind.

On Linux the thread sanitizer does not see Synchronization.Mutex hand a contended lock over
(its slow path is in the uninstrumented runtime), so two accesses made inside one Mutex's
withLock are reported as a race when the lock was contended: a "Swift access race" or, for
the same memory read by plain code, a "data race". Such a report, both of whose accesses are
inside a withLock, is shown as that; any other report fails the run.

An access is inside a withLock when, walking out from it through the project's frames and
the code the compiler or the standard library adds between them (an operator's witness,
`max`), a frame's call site is a withLock call: the column the sanitizer gives is where
`withLock` is written. A frame of any other library (the concurrency runtime, dispatch)
ends the walk, so an access made after the lock was let go is never excused.

Usage: tsan-reports.py REPORT_FILE...
"""
import re
import sys

FRAME = re.compile(r"^#\d+ \S+ (\S+)")
SWIFT_SOURCE = re.compile(r"^(/\S+\.swift)(?::(\d+))?(?::(\d+))?")
# Code between the project's frames that runs where it is called: the compiler's thunks and
# witnesses, and the standard library's generics (`max`, `>=`).
IN_LINE = ("/<compiler-generated>", "(libswiftCore.so+")


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


def calls_with_lock(line, column):
    """Whether the call at this line and column is a withLock (without a column, whether
    the line calls one)."""
    if column is None:
        return "withLock" in line
    return line[column - 1:].startswith("withLock")


def lock_site(frames):
    """Where the access is inside a withLock: walking out from the access, the first frame
    whose call site is a withLock call, passing only the project's frames and IN_LINE code."""
    for frame in frames:
        match = FRAME.match(frame)
        if not match:
            return None
        source = SWIFT_SOURCE.match(match.group(1))
        if not source:
            if any(mark in frame for mark in IN_LINE):
                continue
            return None
        path, line, column = source.group(1), source.group(2), source.group(3)
        if line and calls_with_lock(source_line(path, int(line)), column and int(column)):
            return (path, int(line))
    return None


def mutex_handover(report):
    """The two accesses' withLock lines when the report is the sanitizer's blind spot."""
    if not any(f"WARNING: ThreadSanitizer: {kind} " in report for kind in ("Swift access race", "data race")):
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
