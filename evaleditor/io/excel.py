"""Workbooks: .xlsx/.xlsm read with python-calamine, .xls with xlrd, .xlsx written with openpyxl."""

from evaleditor.io.excel_read import read_xlsx
from evaleditor.io.excel_write import write_xlsx
from evaleditor.io.xls_read import read_xls

__all__ = ["read_xls", "read_xlsx", "write_xlsx"]
