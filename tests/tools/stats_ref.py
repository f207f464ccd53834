#!/usr/bin/env python3
"""stats_ref.py - an independent computation of `nvtxtc stats` (tests/stats.t).

    stats_ref.py [--report=R] [--timeunit=U] [--time-conversion=RULE]... NORMAL...
    stats_ref.py --compare GOT.csv WANT.csv
    stats_ref.py --check-formats CSV COLUMN TABLE TSV JSON
    stats_ref.py --expect-html CSV bars|flame

The first form reads the canonical normal forms (`nvtxtc --emit=nvtxt FILE`,
nvtxt(5) CANONICAL FORM) of the files, in order, and prints the report as
`nvtxtc stats --format=csv` would, computed from the definitions of
nvtxtc(1), STATS, with Python's `statistics` over exact fractions:

  * a range's duration is its end minus its start, in nanoseconds where the
    TimeBase converts (ClockMonotonicRaw, Manual, Relative: as they are;
    FileTime: (t - 116444736000000000) * 100; a --time-conversion rule
    lin or lerp, rounded down), else in ticks, a table of its own per time
    base, after the nanoseconds;
  * Time (%): 100 * total / the table's sum of totals, rounded half up to
    one decimal (0.0 when the sum is 0); Avg the mean and Med the median
    (the mean of the two middle values for an even count), both rounded
    half up to one decimal; StdDev the sample standard deviation (0 for one
    instance), rounded half up to one decimal;
  * rows sorted by total time, largest first, then by name (UTF-8 bytes),
    then PushPop before StartEnd;
  * push/pop ranges pair per file and (ProcessId, ThreadId), last pushed
    first popped; ranges still open at the end of a file are left out;
  * nvtx_pushpop_trace: RangeId numbers the pushes of all files in order
    from 1; DurChild is the sum of the durations of the directly nested
    ranges of the same time unit; rows sorted by start, duration, RangeId.

The second form compares two such CSV documents: every cell equal, except
StdDev, which may differ by one unit of its last decimal (the reference's
is correctly rounded; nvtxtc's comes from long double arithmetic).  Exit 0
when they agree; else the differences on standard output, exit 1.

--check-formats parses the column, table, tsv and json outputs of the same
report back (json with Python's json) and compares every cell with the csv
(python's csv): numbers equal once the thousands separators are removed, or
as floats in json.  --expect-html prints the first table's rows as
tests/stats/html.mjs expects them in the html page.
"""
import csv
import io
import json
import statistics
import sys
from decimal import Decimal, getcontext
from fractions import Fraction

getcontext().prec = 80
TIMEBASES = ["Qpc", "Rdtsc", "FileTime", "Manual", "Relative", "ClockMonotonicRaw", "CNTVCT"]
FILETIME_EPOCH = 116444736000000000
UNITS = {"nsec": (0, "ns"), "usec": (3, "us"), "msec": (6, "ms"), "sec": (9, "s")}


def fields(line):
    """The values of a normal-form line: strings unquoted (str), integers (int), absent (None)."""
    out, i, n = [], 0, len(line)
    while i <= n:
        if i < n and line[i] in "\"'":
            q = line[i]
            j = line.index(q, i + 1)
            out.append(line[i + 1:j])
            i = j + 1
        else:
            j = line.find(",", i)
            j = n if j < 0 else j
            tok = line[i:j].strip()
            out.append(None if tok == "" else int(tok, 0))
            i = j
        if i >= n:
            break
        assert line[i] == ",", line
        i += 1
        if i < n and line[i] == " ":
            i += 1
        if i == n:
            out.append(None)
            break
    return out


def parse_rules(specs):
    rules = {}
    for spec in specs:
        tb, kind, vals = spec.split(":")
        rules[tb] = (kind, [int(v) for v in vals.split(",")])
    return rules


def to_ns(tb, t, rules):
    """Nanoseconds, or None (ticks)."""
    if tb in rules:
        kind, v = rules[tb]
        if kind == "lin":
            ns_a, t_a, freq = v
            return ns_a + ((t - t_a) * 10**9) // freq
        ns_a, t_a, ns_b, t_b = v
        if t_b < t_a:
            ns_a, t_a, ns_b, t_b = ns_b, t_b, ns_a, t_a
        return ns_a + ((t - t_a) * (ns_b - ns_a)) // (t_b - t_a)
    if tb in ("ClockMonotonicRaw", "Manual", "Relative"):
        return t
    if tb == "FileTime":
        return (t - FILETIME_EPOCH) * 100
    return None


def span(tb, a, b, rules):
    """(unit, start, end): unit 0 for nanoseconds, 1 + the time base's index for ticks."""
    na, nb = to_ns(tb, a, rules), to_ns(tb, b, rules)
    if na is None:
        return 1 + TIMEBASES.index(tb), a, b
    return 0, na, nb


def read_ranges(paths, rules):
    """Every closed range (dicts of style, name, unit, start, end; push/pop ranges also pid, tid, file,
    id, level, parent, kids) and the parent id of every push id."""
    ranges, parents, next_id = [], {}, 0
    for fi, path in enumerate(paths):
        stacks = {}
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                cmd, _, rest = line.partition(", ")
                v = fields(rest) if rest else []
                if cmd == "RangeStartEnd":
                    unit, s, e = span(v[2], v[0], v[1], rules)
                    ranges.append(dict(style="StartEnd", name=v[7] or "", unit=unit, start=s, end=e))
                elif cmd == "RangePush":
                    st = stacks.setdefault((v[2], v[3]), [])
                    next_id += 1
                    parent = st[-1]["id"] if st else 0
                    parents[next_id] = parent
                    st.append(dict(style="PushPop", name=v[6] or "", tb=v[1], time=v[0], pid=v[2], tid=v[3],
                                   file=fi, id=next_id, level=len(st), parent=parent, kids=[]))
                elif cmd == "RangePop":
                    st = stacks[(v[2], v[3])]
                    r = st.pop()
                    r["unit"], r["start"], r["end"] = span(r["tb"], r["time"], v[0], rules)
                    if st:
                        st[-1]["kids"].append(r)
                    ranges.append(r)
    return ranges, parents


def half_up(x, decimals=1):
    """A Fraction rounded half up to `decimals` decimals, as an integer count of 10^-decimals."""
    scaled = Fraction(x) * 10**decimals
    return int((scaled + Fraction(1, 2)) // 1)


def dec(units, decimals, shift):
    """units / 10^decimals, shifted `shift` more places, as exact decimal text."""
    neg = units < 0
    digits = str(abs(units)).rjust(decimals + shift + 1, "0")
    cut = len(digits) - (decimals + shift)
    text = digits[:cut] + ("." + digits[cut:] if decimals + shift else "")
    return ("-" if neg and units else "") + text


def stdev_units(durations):
    """The sample standard deviation in tenths, rounded half up, correctly (Decimal sqrt, 80 digits)."""
    if len(durations) < 2:
        return 0
    var = statistics.variance([Fraction(d) for d in durations])
    root = (Decimal(var.numerator) / Decimal(var.denominator)).sqrt()
    return int((root * 10 + Decimal("0.5")).to_integral_value(rounding="ROUND_FLOOR"))


def header(name, kind, unit, shift_name):
    if kind == "pct":
        return name + " (%)"
    if kind == "time":
        return "%s (%s)" % (name, "ticks" if unit else shift_name)
    return name


def sum_tables(ranges, report, tu):
    shift, sname = UNITS[tu]
    groups = {}
    for r in ranges:
        if report == "nvtx_pushpop_sum" and r["style"] != "PushPop":
            continue
        if report == "nvtx_startend_sum" and r["style"] != "StartEnd":
            continue
        groups.setdefault((r["unit"], r["style"], r["name"]), []).append(r["end"] - r["start"])
    out = []
    for unit in sorted({k[0] for k in groups}) or [0]:
        keys = [k for k in groups if k[0] == unit]
        total_all = sum(sum(groups[k]) for k in keys)
        keys.sort(key=lambda k: (-sum(groups[k]), k[2].encode("utf-8"), k[1] != "PushPop"))
        t = shift if unit == 0 else 0
        cols = [("Time", "pct"), ("Total Time", "time"), ("Instances", "n"), ("Avg", "time"), ("Med", "time"),
                ("Min", "time"), ("Max", "time"), ("StdDev", "time")]
        cols += [("Style", "text")] if report == "nvtx_sum" else []
        cols += [("Range", "text")]
        rows = [[header(n, k, unit, sname) for n, k in cols]]
        for k in keys:
            d = groups[k]
            fr = [Fraction(x) for x in d]
            row = [dec(half_up(Fraction(100 * sum(d), total_all)) if total_all else 0, 1, 0),
                   dec(sum(d), 0, t), str(len(d)), dec(half_up(statistics.mean(fr)), 1, t),
                   dec(half_up(statistics.median(fr)), 1, t), dec(min(d), 0, t), dec(max(d), 0, t),
                   dec(stdev_units(d), 1, t)]
            row += [k[1]] if report == "nvtx_sum" else []
            row += [k[2]]
            rows.append(row)
        out.append(rows)
    return out


def trace_tables(ranges, parents, tu):
    shift, sname = UNITS[tu]
    pp = [r for r in ranges if r["style"] == "PushPop"]
    out = []
    for unit in sorted({r["unit"] for r in pp}) or [0]:
        t = shift if unit == 0 else 0
        names = ["Start", "End", "Duration", "DurChild", "DurNonChild"]
        rows = [[header(n, "time", unit, sname) for n in names] +
                ["Name", "PID", "TID", "Lvl", "NumChild", "RangeId", "ParentId", "RangeStack", "NameTree"]]
        sel = sorted((r for r in pp if r["unit"] == unit), key=lambda r: (r["start"], r["end"] - r["start"], r["id"]))
        for r in sel:
            dur = r["end"] - r["start"]
            child = sum(k["end"] - k["start"] for k in r["kids"] if k["unit"] == r["unit"])
            chain, p = [], r["id"]
            while p:
                chain.append(p)
                p = parents[p]
            rows.append([dec(r["start"], 0, t), dec(r["end"], 0, t), dec(dur, 0, t), dec(child, 0, t),
                         dec(dur - child, 0, t), r["name"], str(r["pid"]), str(r["tid"]), str(r["level"]),
                         str(len(r["kids"])), str(r["id"]), str(r["parent"]) if r["parent"] else "",
                         "".join(":%d" % i for i in reversed(chain)), "--" * r["level"] + r["name"]])
        out.append(rows)
    return out


def compare(got_path, want_path):
    def tables(path):
        with open(path, encoding="utf-8", newline="") as f:
            return [list(csv.reader(io.StringIO(block))) for block in f.read().split("\n\n") if block.strip()]
    got, want = tables(got_path), tables(want_path)
    bad = []
    if len(got) != len(want):
        bad.append("%d tables, expected %d" % (len(got), len(want)))
    for g, w in zip(got, want):
        if len(g) != len(w):
            bad.append("%d rows, expected %d (header %s)" % (len(g) - 1, len(w) - 1, w[0]))
        for i, (gr, wr) in enumerate(zip(g, w)):
            for c, (gv, wv) in enumerate(zip(gr, wr)):
                if gv == wv:
                    continue
                if i and w[0][c].startswith("StdDev"):
                    last = Decimal(1).scaleb(Decimal(wv).as_tuple().exponent)
                    if abs(Decimal(gv) - Decimal(wv)) <= last:
                        continue
                bad.append("row %d, %s: got %r, expected %r" % (i, w[0][c], gv, wv))
            if len(gr) != len(wr):
                bad.append("row %d: %d cells, expected %d" % (i, len(gr), len(wr)))
    for b in bad[:20]:
        print(b)
    return 1 if bad else 0


ID_COLUMNS = ("PID", "TID", "Lvl", "RangeId", "ParentId")


def csv_tables(path):
    with open(path, encoding="utf-8", newline="") as f:
        return [list(csv.reader(io.StringIO(block))) for block in f.read().split("\n\n") if block.strip()]


def is_text(head):
    return head in ("Style", "Range", "Name", "RangeStack", "NameTree")


def with_seps(head, cell):
    """A csv cell as the column and table formats print it: thousands separators in numbers, but IDs."""
    if is_text(head) or head in ID_COLUMNS or cell == "":
        return cell
    sign = "-" if cell.startswith("-") else ""
    whole, _, frac = cell.lstrip("-").partition(".")
    return sign + "{:,}".format(int(whole)) + ("." + frac if frac else "")


def expect_html(csv_path, kind):
    """The first table's rows as the html page shows them (tests/stats/html.mjs)."""
    t = csv_tables(csv_path)[0]
    rows = [[with_seps(t[0][c], v) for c, v in enumerate(r)] for r in t[1:]]
    print(json.dumps({"kind": kind, "rows": rows}))
    return 0


def grid_tables(path, boxed):
    """The tables of --format=column (boxed False) or table: lists of rows of stripped cells."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, i = [], 0
    while i < len(lines):
        rule = lines[i + 1] if i + 1 < len(lines) else ""
        if boxed and lines[i].startswith("+-") and i + 2 < len(lines):
            rule, head, i = lines[i], lines[i + 1], i + 3
        elif not boxed and rule.startswith(" -"):
            head, i = lines[i], i + 2
        else:
            i += 1
            continue
        # the column spans: runs of '-' in the rule line
        spans, j = [], 0
        while j < len(rule):
            if rule[j] == "-":
                k = j
                while k < len(rule) and rule[k] == "-":
                    k += 1
                spans.append((j - (1 if boxed else 0), k + (1 if boxed else 0)))
                j = k
            else:
                j += 1
        rows = [[head[a:b].strip(" |") for a, b in spans]]
        while i < len(lines) and lines[i] != "" and not lines[i].startswith("+-"):
            rows.append([lines[i][a:b].strip(" |") for a, b in spans])
            i += 1
        i += 1  # the closing rule (table) or the blank line between tables
        out.append(rows)
    return out


def check_formats(csv_path, column_path, table_path, tsv_path, json_path):
    want = csv_tables(csv_path)
    bad = []
    for name, got in (("column", grid_tables(column_path, False)), ("table", grid_tables(table_path, True))):
        if len(got) != len(want):
            bad.append("%s: %d tables, expected %d" % (name, len(got), len(want)))
        for g, w in zip(got, want):
            exp = [w[0]] + [[with_seps(w[0][c], v).strip() for c, v in enumerate(r)] for r in w[1:]]
            if g != exp:
                bad.append("%s: %s\n   expected %s" % (name, g[:3], exp[:3]))
    with open(tsv_path, encoding="utf-8") as f:
        blocks = [b for b in f.read().split("\n\n") if b.strip()]
    unesc = {"t": "\t", "n": "\n", "r": "\r", "\\": "\\"}
    import re
    tsv = [[[re.sub(r"\\(.)", lambda m: unesc[m.group(1)], c) for c in line.split("\t")]
            for line in b.strip("\n").split("\n")] for b in blocks]
    if tsv != want:
        bad.append("tsv differs from csv: %s" % tsv[:1])
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    if len(doc["tables"]) != len(want):
        bad.append("json: %d tables, expected %d" % (len(doc["tables"]), len(want)))
    for jt, w in zip(doc["tables"], want):
        if jt["columns"] != w[0]:
            bad.append("json columns %s, expected %s" % (jt["columns"], w[0]))
        if len(jt["rows"]) != len(w) - 1:
            bad.append("json: %d rows, expected %d" % (len(jt["rows"]), len(w) - 1))
        for jr, r in zip(jt["rows"], w[1:]):
            for head, cell in zip(w[0], r):
                v = jr.get(head)
                ok = (v == cell) if is_text(head) else (v is None if cell == "" else
                                                       (isinstance(v, (int, float)) and float(v) == float(cell)))
                if not ok:
                    bad.append("json %s: %r, csv %r" % (head, v, cell))
    for b in bad[:20]:
        print(b)
    return 1 if bad else 0


def main(argv):
    if argv and argv[0] == "--compare":
        return compare(argv[1], argv[2])
    if argv and argv[0] == "--expect-html":
        return expect_html(argv[1], argv[2])
    if argv and argv[0] == "--check-formats":
        return check_formats(*argv[1:6])
    report, tu, specs, paths = "nvtx_sum", "nsec", [], []
    for a in argv:
        if a.startswith("--report="):
            report = a.split("=", 1)[1]
        elif a.startswith("--timeunit="):
            tu = a.split("=", 1)[1]
        elif a.startswith("--time-conversion="):
            specs.append(a.split("=", 1)[1])
        else:
            paths.append(a)
    ranges, parents = read_ranges(paths, parse_rules(specs))
    if report == "nvtx_pushpop_trace":
        tables = trace_tables(ranges, parents, tu)
    else:
        tables = sum_tables(ranges, report, tu)
    w = csv.writer(sys.stdout, lineterminator="\n")
    for i, rows in enumerate(tables):
        if i:
            sys.stdout.write("\n")
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
