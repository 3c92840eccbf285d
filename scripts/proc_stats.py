"""What /proc says of a running process, for the load scripts (sse-load.py, hostile-load.py)."""
import os


def cpu_seconds(pid):
    """The process's user + system CPU time so far, in seconds (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def rss_kb(pid):
    """The process's resident memory (VmRSS) in KiB (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
