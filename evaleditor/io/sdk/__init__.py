"""SDK JSON (the Agent Platform Evaluation SDK's `EvaluationDataset`): read and write.

`read_sdk_json` (sdk/read.py) and `dataset_to_sdk` / `write_sdk_json` (sdk/write.py) follow formats.md,
"Mapping between the table and SDK JSON"; sdk/mapping.py holds what both sides share (sdk/conversations.py
the conversation keys, sdk/extras.py the extra columns), sdk/check.py checks the JSON against the SDK's
shape (sdk/schema.py, generated) without importing the SDK.
"""

from __future__ import annotations

from evaleditor.io.sdk.mapping import SdkCase
from evaleditor.io.sdk.read import read_sdk_json
from evaleditor.io.sdk.write import SdkColumnError, dataset_to_sdk, write_sdk_json

__all__ = ["SdkCase", "SdkColumnError", "dataset_to_sdk", "read_sdk_json", "write_sdk_json"]
