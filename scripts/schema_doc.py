"""Write docs/schema/*.json, the JSON Schemas of `validate`, `shape` and `convert --format json`,
from the report models (evaleditor/core/schema.py): `python3 scripts/schema_doc.py`. A test keeps
the files equal to what this writes."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaleditor.core.schema import REPORTS  # noqa: E402

DOCS = ROOT / "docs" / "schema"


def _plain(node):
    """The schema as today's pydantic spells it, at any pydantic we accept: older ones (2.5, our floor) wrap a `$ref`
    that has a description beside it in a one-item `allOf` (the same meaning in draft 2020-12)."""
    if isinstance(node, list):
        return [_plain(n) for n in node]
    if not isinstance(node, dict):
        return node
    node = {k: _plain(v) for k, v in node.items()}
    wrapped = node.get("allOf")
    if isinstance(wrapped, list) and len(wrapped) == 1 and set(wrapped[0]) == {"$ref"}:
        rest = {k: v for k, v in node.items() if k != "allOf"}
        node = {**wrapped[0], **rest}
    return node


def texts() -> dict[Path, str]:
    """{file: its text} for each command's report."""
    out = {}
    for command, model in REPORTS.items():
        schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                  **_plain(model.model_json_schema(mode="serialization"))}
        out[DOCS / f"{command}-report.json"] = json.dumps(schema, ensure_ascii=False, indent=2) + "\n"
    return out


if __name__ == "__main__":
    DOCS.mkdir(parents=True, exist_ok=True)
    for path, text in texts().items():
        path.write_text(text, encoding="utf-8")
        print(path.relative_to(ROOT))
