"""evaleditor: an offline editor and checker for AI-agent evaluation datasets.

The Python API (docs/api.md) is `evaleditor.open`, `evaleditor.from_pandas` and the objects they
return. It is loaded on first use, so that `import evaleditor` (and `evaleditor --help`) stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

__version__ = "0.1.0"

__all__ = [
    "Column", "ConvertReport", "Counts", "Document", "EvalEditorError", "Issue", "LeftOut", "ReadError", "Report",
    "SaveRefused", "Shape", "ShapeReport", "WriteError", "__version__", "from_pandas", "open",
]

if TYPE_CHECKING:
    from evaleditor.api import Document, SaveRefused, from_pandas, open
    from evaleditor.core.errors import EvalEditorError, ReadError, WriteError
    from evaleditor.core.schema import (
        Column,
        ConvertReport,
        Counts,
        Issue,
        LeftOut,
        Report,
        Shape,
        ShapeReport,
    )


def _home(name: str) -> str:
    """The module that defines public name `name`."""
    if name in ("EvalEditorError", "ReadError", "WriteError"):
        return "evaleditor.core.errors"
    if name in ("Document", "SaveRefused", "from_pandas", "open"):
        return "evaleditor.api"
    return "evaleditor.core.schema"


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module 'evaleditor' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_home(name)), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
