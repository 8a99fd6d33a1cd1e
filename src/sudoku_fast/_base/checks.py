"""Argument checks shared by the batch functions, and the limits they enforce.

Each raises `TypeError` for a value of the wrong type and `ValueError` for one out of
range, naming the argument as the Python API spells it (`max_nodes`, `limit`, `seed`).
"""

from __future__ import annotations

__all__ = [
    "DEFAULT_MAX_NODES",
    "MAX_LIMIT",
    "MAX_NODES",
    "check_flag",
    "check_limit",
    "check_seed",
    "node_budget",
]

# Search nodes a puzzle of the general engine may use before its answer is given up as
# unknown (SearchLimitExceeded). Measured times per size are in docs/sizes.md (Budget).
# The hardest puzzle of the public data sets needs about 170,000.
DEFAULT_MAX_NODES = 1_000_000
# The engines' C types: a solution count limit is an int, a node budget an int64.
MAX_LIMIT = 2**31 - 1
MAX_NODES = 2**63 - 1


def check_flag(value: object, name: str) -> bool:
    """`value` if it is True or False; TypeError naming `name` otherwise (a truthy string
    such as "False" would silently mean the opposite)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, not {value!r:.40}")
    return value


def check_limit(limit: object) -> None:
    """Raise unless `limit` (solutions to count up to) is an int from 1 to MAX_LIMIT."""
    if isinstance(limit, bool) or not isinstance(limit, int):
        raise TypeError(f"limit must be an int, not {type(limit).__name__}")
    if not 1 <= limit <= MAX_LIMIT:
        raise ValueError(f"limit must be from 1 to {MAX_LIMIT:,} (2**31 - 1), got {limit:,}")


def node_budget(max_nodes: int | None) -> int:
    """The engine's form of a `max_nodes` argument: 0 means no budget.

    Raises unless it is None or an int from 1 to MAX_NODES.
    """
    if max_nodes is None:
        return 0
    if isinstance(max_nodes, bool) or not isinstance(max_nodes, int):
        raise TypeError(f"max_nodes must be an int or None, not {type(max_nodes).__name__}")
    if not 1 <= max_nodes <= MAX_NODES:
        raise ValueError(
            f"max_nodes must be from 1 to {MAX_NODES:,} (2**63 - 1), or None for no budget; "
            f"got {max_nodes:,}"
        )
    return max_nodes


def check_seed(seed: object) -> None:
    """Raise unless `seed` is None or an int >= 0 (Python's Random would take -s as s)."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int or None, not {type(seed).__name__}")
    if seed < 0:
        raise ValueError(f"seed must not be negative, got {seed}")
