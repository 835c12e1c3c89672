"""Amazon Bedrock model evaluation (target `bedrock`): a custom prompt dataset is a .jsonl file, one
object a line, with `prompt` (required), `referenceResponse` (the ground truth) and an optional
`category` (scores are reported per category); at most 1,000 prompts per evaluation job
(rule too-many-prompts). Bedrock evaluates every prompt on its own: a conversation's turns are
written as separate prompts (rule conversation-not-supported). Other columns are written as keys of
their own, so nothing is lost; Bedrock reads the three keys above.
"""

from __future__ import annotations

from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.targets import BEDROCK
from evaleditor.io.platforms import Platform, cases, flat_record, kept_records

SOURCE = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-evaluation-prompt-datasets-custom.html"


def records(ds: Dataset) -> list[dict[str, Any]]:
    kept = kept_records(ds)
    made = kept if kept is not None else [flat_record(c, BEDROCK) for c in cases(ds)]
    # `prompt` is the key Bedrock requires: a row whose question is empty (rule empty-question) keeps it, ""
    return [r if "prompt" in r else {"prompt": "", **r} for r in made]


PLATFORM = Platform(BEDROCK, SOURCE, records, None,
                    owns=lambda keys: "referenceResponse" in keys)
