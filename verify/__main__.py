"""``python -m verify ARGS``: the same command line as the ``verify`` script (``verify.cli``)."""

from .cli import main

main(prog_name="verify")
