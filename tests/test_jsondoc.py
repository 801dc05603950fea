"""Reading back the toolkit's own JSON documents (scenario files, conformance runs, studies): every bad
input is one error in the caller's class naming the file, and the line when the JSON is broken."""

from __future__ import annotations

import pytest

from verify.conform import ConformInputError
from verify.errors import SpecError
from verify.jsondoc import read_doc
from verify.study.page import load as load_study


def _read(path, **kw):
    return read_doc(path, "thing", "verify.thing/1", ConformInputError, **kw)


def test_a_document_is_read_from_its_file_or_its_folder(tmp_path):
    (tmp_path / "thing.json").write_text('{"schema": "verify.thing/1", "x": 1}')
    doc, where = _read(tmp_path, in_folder="thing.json")
    assert doc["x"] == 1 and where.file == str(tmp_path / "thing.json")
    assert _read(tmp_path / "thing.json")[0] == doc


@pytest.mark.parametrize("content, message, line", [
    (None, "no thing here; `verify thing` writes one", None),
    ('{"schema": "verify.thing/1",\n  oops}', "the thing is not JSON", 2),
    ('{"schema": "other"}', "not a thing: expected a verify.thing/1 document, got schema 'other'", 1),
    ('[1, 2]', "got schema 'list'", 1),
    (b"\xff\xfe", "cannot read the thing", None),
])
def test_bad_documents_name_the_file_and_line(tmp_path, content, message, line):
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    with pytest.raises(ConformInputError) as err:
        _read(path, written_by="`verify thing`")
    assert message in err.value.message and err.value.code == "E026"
    assert err.value.where.file == str(path) and err.value.where.line == line


def test_a_broken_study_document_is_e030_with_its_line(tmp_path):
    (tmp_path / "study.json").write_text('{\n"schema": "verify.study/1",\n"rows": [,]}')
    with pytest.raises(SpecError) as err:
        load_study(tmp_path)
    assert err.value.code == "E031" and err.value.where.line == 3
    assert err.value.where.file == str(tmp_path / "study.json")
