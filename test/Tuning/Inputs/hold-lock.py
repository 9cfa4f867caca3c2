# Holds an exclusive lock on the SQLite file argv[1] while running the
# command argv[2] (a shell command line), then releases it; prints the
# command's output. Used by tuning-db.mlir for the locked-database case.
import sqlite3, subprocess, sys
c = sqlite3.connect(sys.argv[1], isolation_level=None)
c.execute("BEGIN EXCLUSIVE")
r = subprocess.run(sys.argv[2], shell=True, capture_output=True, text=True)
sys.stdout.write(r.stdout + r.stderr)
c.execute("ROLLBACK")
sys.exit(0 if r.returncode != 0 else 1)  # the command must fail
