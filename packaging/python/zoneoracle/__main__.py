"""python3 -m zoneoracle COMMAND [ARGS...]: the native zoneoracle command
this package carries, exec'd (the same process id, options, output,
reports and exit codes as an installed zoneoracle; --engine CMD runs a
process engine as it does natively), its data the package's suite."""
import os
import sys

from . import _native


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    env = dict(os.environ)
    env.setdefault("ZO_DATA_DIR", _native.DATA)
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(_native.BIN, [_native.BIN, *argv], env)
    except OSError as e:
        sys.stderr.write(f"zoneoracle: cannot run {_native.BIN}: {e}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())
