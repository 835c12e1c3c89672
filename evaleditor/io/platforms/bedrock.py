"""Amazon Bedrock model evaluation (target `bedrock`): a custom prompt dataset is a .jsonl file, one
object a line, with `prompt` (required), `referenceResponse` (the ground truth) and an optional
`category` (scores are reported per category); at most 1,000 prompts per evaluation job
(rule too-many-prompts). A job that judges responses made elsewhere also reads `modelResponses`.
Bedrock evaluates every prompt on its own: a conversation's turns are written as separate prompts
(rule conversation-not-supported).

AWS documents these keys only ("You must use the following keys in a custom dataset") and says
nothing of others, so no other key is written: the other columns (session_id, turn_id, context …)
are left out, and `left_out` names them for the save to say so.
"""

from __future__ import annotations

from typing import Any

from evaleditor.core.dataset import Dataset
from evaleditor.core.i18n import N_, Msg
from evaleditor.core.targets import ANSWER, BEDROCK, QUESTION, get_target
from evaleditor.io.platforms import Platform, built, cases, flat_record, kept_records

SOURCE = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-evaluation-prompt-datasets-custom.html"
_T = get_target(BEDROCK)
KEYS = (_T.header_for(QUESTION), _T.header_for(ANSWER), *(_T.only_keys or ()))  # the keys AWS documents


def _made(ds: Dataset) -> list[dict[str, Any]]:
    """Every case with all its columns, before what Bedrock does not read is left out."""
    kept = kept_records(ds)
    return kept if kept is not None else [flat_record(c, BEDROCK) for c in cases(ds)]


def records(ds: Dataset) -> list[dict[str, Any]]:
    # `prompt` is the key Bedrock requires: a row whose question is empty (rule empty-question) keeps it, ""
    return [{"prompt": r.get("prompt", ""), **{k: v for k, v in r.items() if k in KEYS}}
            for r in built(ds, BEDROCK, _made, keep=False)]  # made once: the save plan's left_out made them


def left_out(ds: Dataset, fmt: str) -> list[Msg]:
    """The columns with a value that a Bedrock prompt dataset does not hold."""
    dropped = list(dict.fromkeys(k for r in built(ds, BEDROCK, _made) for k in r if k not in KEYS))
    if not dropped:
        return []
    return [Msg(N_("the columns a Bedrock prompt dataset does not hold (it holds prompt, referenceResponse, "
                   "category and modelResponses): {columns}"), (("columns", ", ".join(dropped)),))]


def blank(headers: list[str]) -> dict[str, Any]:
    """The line of a file with no prompts yet: the keys Bedrock reads, empty."""
    return {"prompt": "", "referenceResponse": "", **{k: "" for k in headers if k in KEYS}}


PLATFORM = Platform(BEDROCK, SOURCE, records, None,
                    owns=lambda keys: "referenceResponse" in keys, left_out=left_out, blank=blank)
