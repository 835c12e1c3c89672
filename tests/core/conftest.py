import pytest

from evaleditor.core.document import document_from_table
from evaleditor.core.table import RawTable


def make_doc(headers, rows, target=None, fmt="csv"):
    return document_from_table(RawTable(list(headers), [list(r) for r in rows], fmt), None, target)


@pytest.fixture
def doc_of():
    return make_doc
