"""Exceptions of the mpmd package.

Every failure of the compiler or the runtime is raised as an ``MpmdError``
subclass carrying the diagnostics the C++ side emitted, each with the file
(or buffer name), line, column and message of its location. Nothing the
package is given makes the interpreter crash: bad IR, bad configurations and
bad arguments are exceptions.
"""

from __future__ import annotations

import dataclasses

__all__ = [
    "Diagnostic",
    "MpmdError",
    "ProgramError",
    "ConfigError",
    "InputError",
    "ExecutionError",
]


@dataclasses.dataclass(frozen=True)
class Diagnostic:
    """One compiler or runtime diagnostic.

    ``line`` and ``column`` are 1-based; both are 0 (and ``file`` empty) when
    the diagnostic has no file location.
    """

    severity: str
    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}:{self.column}: " if self.line else ""
        return f"{where}{self.severity}: {self.message}"


class MpmdError(Exception):
    """A failure of the mpmd compiler or runtime.

    Attributes:
      message: what failed, in one line.
      diagnostics: the ``Diagnostic`` s emitted while failing, in order.
    """

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None):
        self.message = message
        self.diagnostics = list(diagnostics or [])
        super().__init__(message)

    def __str__(self) -> str:
        lines = [self.message]
        lines += [
            f"  {diagnostic}"
            for diagnostic in self.diagnostics
            if str(diagnostic) != f"error: {self.message}"
        ]
        return "\n".join(lines)


class ProgramError(MpmdError):
    """The program does not parse, verify, lower or compile (``mpmd`` exit code 1)."""


class ConfigError(MpmdError, ValueError):
    """The configuration or an option is wrong (``mpmd`` exit code 2)."""


class InputError(MpmdError, ValueError):
    """Arguments that do not fit the program: their count, dtype or shape."""


class ExecutionError(MpmdError):
    """Running the program failed (a kernel, the memory cap, the reference run)."""


_ERROR_CLASSES = {
    "program": ProgramError,
    "config": ConfigError,
    "input": InputError,
    "runtime": ExecutionError,
}


def _make_error(kind: str, message: str, diagnostics: list[Diagnostic]) -> MpmdError:
    """The exception of a failure of kind ``kind`` (called by the extension)."""
    return _ERROR_CLASSES[kind](message, diagnostics)
