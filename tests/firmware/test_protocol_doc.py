"""docs/protocol.md: every byte-level example decodes to what the doc says, and encoding the fields
it shows gives exactly its bytes; every message type has an example."""
import ast
import pathlib
import re
import sys

import pytest

from shengji_table.firmware_src import FIRMWARE_DIR

REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

sys.path.insert(0, str(FIRMWARE_DIR))
import protocol as P  # noqa: E402

DOC = (REPO_ROOT / "docs" / "protocol.md").read_text()
BLOCKS = re.findall(r"```frame\n(.*?)```", DOC, re.S)
BY_NAME = {name: typ for typ, name in P.NAMES.items()}


def parse(block):
    fields = {}
    key = None
    for line in block.splitlines():
        m = re.match(r"(\w+):\s*(.*)", line)
        if m:
            key = m.group(1)
            fields[key] = m.group(2)
        else:
            fields[key] += " " + line.strip()
    return fields


def encode(name, sender, seq, f):
    """Encode the doc's fields with the codec's encoder for ``name``."""
    w = P.Writer(sender.to_bytes(4, "little"))
    out = bytearray(P.MAX_FRAME)
    fields_as_they_are = {"STACK": P.encode_stack, "BUTTON": P.encode_button, "READER": P.encode_reader}
    if name == "HELLO":
        n = P.encode_hello(w, out, seq, f[1].encode(), f[2].encode())
    elif name in ("TAP", "TAKE_BACK"):
        n = (P.encode_tap if name == "TAP" else P.encode_take_back)(w, out, seq, f[0], f[1], -1, f[2])
    elif name in fields_as_they_are:
        n = fields_as_they_are[name](w, out, seq, *f)
    elif name == "SNAPSHOT":
        rings = b"".join(bytes([p, r, g, b, c, a & 0xFF, a >> 8]) for p, r, g, b, c, a in f[6])
        counters = () if f[8] is None else (f[7], f[8])    # None: the frame of firmware without them
        n = P.encode_snapshot(w, out, *f[:6], rings, len(f[6]), *counters)
    elif name == "HEARTBEAT":
        n = P.encode_heartbeat(w, out, *f)
    elif name == "LOG":
        n = P.encode_log(w, out, seq, f.encode())
    elif name == "ACK":
        n = P.encode_ack(w, out, seq, f[0], f[1].to_bytes(4, "little"))
    elif name == "RING":
        n = P.encode_ring(w, out, seq, *f)
    elif name == "SNAPSHOT_REQUEST":
        n = P.encode_snapshot_request(w, out, seq)
    elif name == "HOST_HEARTBEAT":
        n = P.encode_host_heartbeat(w, out, seq)
    elif name == "SIM_PLACE":
        n = P.encode_sim_place(w, out, seq, *f)
    elif name == "SIM_LIFT":
        n = P.encode_sim_lift(w, out, seq, f)
    else:
        n = P.encode_sim_button(w, out, seq, *f)
    return bytes(out[:n])


def test_every_message_type_has_an_example():
    names = [parse(b)["message"] for b in BLOCKS]
    assert set(names) == set(P.NAMES.values())
    assert names.count("SNAPSHOT") == 2          # with poll counters, and as older firmware sends it


@pytest.mark.parametrize("block", BLOCKS, ids=lambda b: parse(b)["message"])
def test_doc_example_decodes_to_what_the_doc_says_and_re_encodes_to_its_bytes(block):
    f = parse(block)
    name, sender, seq = f["message"], int(f["sender"], 16), int(f["seq"])
    data = bytes.fromhex(f["bytes"])
    typ = BY_NAME[name]
    d = P.Decoder(P.direction(typ))
    (got_typ, got_sender, got_seq, payload), = d.feed(data)
    assert (got_typ, got_sender, got_seq) == (typ, sender, seq)
    fields = ast.literal_eval(f["fields"])
    assert P.decode(typ, payload) == fields
    assert encode(name, sender, seq, fields) == data


def test_the_worked_cobs_example_in_the_prose_is_right():
    m = re.search(r"has the body\n?`([0-9a-f ]+)`.*?COBS turns into `([0-9a-f ]+)`", DOC, re.S)
    body, encoded = bytes.fromhex(m.group(1)), bytes.fromhex(m.group(2))
    out = bytearray(P.MAX_FRAME)
    n = P.cobs_encode(body, len(body), out)
    assert bytes(out[:n]) == encoded + b"\x00"
    assert P.crc16(body, len(body) - 2) == body[-2] | body[-1] << 8
