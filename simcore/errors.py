"""The one exception type the command line turns into a clear one-line error."""


class SimcoreError(Exception):
    """Bad input or an unusable output folder: reported as one line, exit status 2."""
