# Runs commands for the benchmark and reports each one's own resource usage, exactly: the kernel's
# rusage of that child as wait4(2) returns it (user and system CPU to the microsecond, peak RSS),
# so nothing of this program, of the harness or of another child is counted. Node cannot wait4
# itself, and `times`, /usr/bin/time and /proc round to milliseconds or clock ticks.
#
# One JSON request per line on stdin: {"argv": [...], "cwd": "...", "env": {...},
# "stdout": path|null, "stderr": path|null}; one JSON answer per line on stdout:
# {"code": exit code, "userUs": ..., "sysUs": ..., "maxRssKb": ...}.
import json
import os
import sys


def run(req):
    devnull = os.devnull
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, devnull, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, req.get("stdout") or devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
        (os.POSIX_SPAWN_OPEN, 2, req.get("stderr") or devnull, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
    ]
    cwd = req.get("cwd")
    previous = os.getcwd()
    if cwd:
        os.chdir(cwd)
    try:
        pid = os.posix_spawn(req["argv"][0], req["argv"], req["env"], file_actions=actions)
    finally:
        os.chdir(previous)
    _, status, usage = os.wait4(pid, 0)
    return {
        "code": os.waitstatus_to_exitcode(status),
        "userUs": round(usage.ru_utime * 1e6),
        "sysUs": round(usage.ru_stime * 1e6),
        "maxRssKb": usage.ru_maxrss,
    }


for line in sys.stdin:
    try:
        answer = run(json.loads(line))
    except Exception as e:  # the harness reports it; this program keeps serving
        answer = {"error": repr(e)}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
