"""The judging server's records are bounded by bytes, not only by count (issue 20, part 7; adapters/mqrr/judging.py).

A client that sends megabytes in its arguments leaves records of kilobytes, that say where they were cut; the
records stop at RECORD_BYTES; judge_calls answers in pages, and the client reads them all.
"""

from __future__ import annotations

import json

import pytest

from mqspec.adapters import connect
from mqspec.adapters.in_process import InProcessTarget
from mqspec.adapters.mqrr import judging
from mqspec.adapters.serve import serve
from mqspec.protocol.constants import Access, ShareMode
from mqspec.protocol.hresult import HRESULT
from mqspec.protocol.queue_format import from_format_name

LONG = "DIRECT=OS:" + "a" * 1_000_000   # 2 MB of UTF-16 on the wire, in one R_OpenQueue


@pytest.fixture
def judged():
    hosted = InProcessTarget()
    with serve(hosted, judge=True, log=lambda line: None) as served, \
            connect(f"mqrr://127.0.0.1:{served.port}") as client:
        client.judge_forget()
        yield served.remote_read, client
    hosted.close()


def size(records: list[dict]) -> int:
    return len(json.dumps(records))


def test_a_long_argument_is_cut_in_its_record_and_the_record_says_where(judged):
    judge, client = judged
    for _ in range(10):
        assert client.open_queue(from_format_name(LONG), Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE).hresult != \
            HRESULT.MQ_OK
    records = client.judge_calls()
    assert [record["method"] for record in records] == ["R_OpenQueue"] * 10
    assert size(records) < 10 * (judging.VALUE_KEPT + 2048)   # was 10 x 2 MB
    for record in records:
        assert record["cut"] == [".pQueueFormat.direct_id (1000003 characters)"]   # "OS:" and the name


def test_records_stop_at_the_byte_cap(judged, monkeypatch):
    judge, client = judged
    monkeypatch.setattr(judging, "RECORD_BYTES", 64 * 1024)
    for _ in range(40):
        client.open_queue(from_format_name(LONG), Access.PEEK_ACCESS, ShareMode.MQ_DENY_NONE)
    records = client.judge_calls()
    assert 3 <= len(records) < 40
    assert size(records) < 64 * 1024 + judging.VALUE_KEPT + 2048
    client.judge_forget()   # a new scenario: room again
    client.get_server_port()
    assert len(client.judge_calls()) == 1


def test_judge_calls_answers_in_pages_and_the_client_reads_them_all(judged, monkeypatch):
    judge, client = judged
    monkeypatch.setattr(judging, "PAGE_BYTES", 4 * 1024)
    for _ in range(30):
        client.get_server_port()
    first = judge.judge_calls()
    assert 0 < len(first) < 30 and [record["seq"] for record in first] == list(range(len(first)))
    assert [record["seq"] for record in client.judge_calls()] == list(range(30))
