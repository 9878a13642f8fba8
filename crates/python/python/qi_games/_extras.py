"""Imports of the optional dependencies, with the extra that provides them."""

from __future__ import annotations

import importlib
from types import ModuleType


def install_hint(extra: str) -> str:
    """How to install the package with ``extra``: from a checkout of the
    repository (what works today), and by name once it is published."""
    return (
        f'from a checkout of the repository, pip install "./crates/python[{extra}]"; '
        f'once qi-games is published on PyPI, pip install "qi-games[{extra}]"'
    )


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Imports ``module``, or raises ImportError saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{feature} needs the '{module}' package, which is not installed: "
            f"pip install {module}, or install qi-games with the '{extra}' extra ({install_hint(extra)})"
        ) from error
