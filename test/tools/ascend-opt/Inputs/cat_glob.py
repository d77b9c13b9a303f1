"""Print the one file matching a glob pattern (dump-dir file numbers shift as passes gain stages)."""
import glob
import sys

[path] = glob.glob(sys.argv[1])
sys.stdout.write(open(path, encoding="utf-8").read())
