"""Imports of the optional dependencies, with the extra that provides them."""

from __future__ import annotations

import importlib
from types import ModuleType


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Imports ``module``, or raises ImportError naming the pip extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(
            f"{feature} needs the '{module}' package, which is not installed: "
            f'pip install "qi-games[{extra}]"'
        ) from error
