#!/usr/bin/env python3
"""chrome_merge_ref.py MERGED.json ONE.json... - checks a merged --emit=chrome
document (nvtxtc --emit=chrome FILE...) against the single-file exports of
the same files, in the same order (nvtxtc(1), CHROME TRACE EVENTS, Several
files): its events are the files' events one file after the other, each in
its own export's order, with every "ts" shifted from the file's origin
(otherData.nvtxtc_time_origin_ns) onto the merged one, exact to the
nanosecond (decimal arithmetic, no doubles), and the async ids (b/e, n)
renumbered so that each id belongs to one start/end range in the whole
document.  Prints what
differs and exits 1; exits 0 when all agrees."""
import json
import sys
from decimal import Decimal


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f, parse_float=Decimal, parse_int=Decimal)


def absolute(ev, origin):
    """The event with ts in absolute nanoseconds and its id left out."""
    e = dict(ev)
    if "ts" in e:
        e["ts"] = e["ts"] * 1000 + origin
    e.pop("id", None)
    return e


def main(argv):
    merged = load(argv[1])
    singles = [load(p) for p in argv[2:]]
    bad = []
    origin = merged["otherData"].get("nvtxtc_time_origin_ns", Decimal(0))
    want = []
    for doc in singles:
        o = doc["otherData"].get("nvtxtc_time_origin_ns", Decimal(0))
        want += [absolute(e, o) for e in doc["traceEvents"]]
    got = [absolute(e, origin) for e in merged["traceEvents"]]
    if len(got) != len(want):
        bad.append("%d events, the files' exports have %d" % (len(got), len(want)))
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            bad.append("event %d: %r, want %r" % (i, g, w))
            break
    # each async id names one start/end range: one b and one e, the e after its b, or one n
    seen = {}
    for e in merged["traceEvents"]:
        if e["ph"] in ("b", "e", "n"):
            seen.setdefault(e["id"], []).append(e["ph"])
    for k, v in seen.items():
        if v != ["b", "e"] and v != ["n"]:
            bad.append("async id %s is used by %s" % (k, v))
    names = [f["file"] for f in merged["otherData"].get("files", [])]
    if len(names) != len(singles):
        bad.append("otherData.files has %d entries for %d files" % (len(names), len(singles)))
    for doc, f in zip(singles, merged["otherData"].get("files", [])):
        if doc["otherData"].get("file_display_name") != f["display_name"]:
            bad.append("%s: display_name %r, its export says %r"
                       % (f["file"], f["display_name"], doc["otherData"].get("file_display_name")))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
