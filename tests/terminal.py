"""Start a child process as a person's shell would, whatever started the test run."""

import signal


def ctrl_c_works() -> None:
    """``preexec_fn`` for a child that must answer Ctrl-C: a test run started in the background
    of a script (as CI starts it) inherits SIGINT ignored, every child inherits that too, and
    Python leaves an ignored SIGINT ignored; a terminal's foreground job never has it so."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
