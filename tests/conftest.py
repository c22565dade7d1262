"""Shared fixtures: where the Pentobi reference games live."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# A copy of ../shared/reference (Pentobi's games; the full legal-move lists
# are left out, their SHA-1 is in the .jsonl files).
REFERENCE = Path(os.environ.get("BLOKUS_REFERENCE", Path(__file__).parent / "data" / "reference"))
VARIANT_IDS = [
    "classic", "classic_2", "classic_3", "duo", "junior", "trigon", "trigon_2", "trigon_3",
]
Record = dict[str, Any]


def reference_games(variant: str) -> Iterator[tuple[Record, list[Record], Record]]:
    """(start, positions, end) of each reference game of a variant."""
    path = REFERENCE / variant / f"{variant}.jsonl"
    start: dict[str, Any] = {}
    positions: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            if record["type"] == "start":
                start, positions = record, []
            elif record["type"] == "pos":
                positions.append(record)
            else:
                yield start, positions, record
